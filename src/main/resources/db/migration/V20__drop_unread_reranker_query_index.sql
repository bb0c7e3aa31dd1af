-- The reranker reads its feedback by tenant and time, never by similarity of the query embeddings, so the HNSW
-- index on them cost a graph insert on every reranked reply and served no query.
drop index if exists reranker_feedback_query_idx;
