-- Sessions created before strategies, prompt budgets and reranking existed get the values they behaved with.
update sessions
set settings = '{"strategy": "multi-view", "promptTokenBudget": 100000, "rerank": false}'::jsonb || settings
where not (settings ? 'strategy' and settings ? 'promptTokenBudget' and settings ? 'rerank');
