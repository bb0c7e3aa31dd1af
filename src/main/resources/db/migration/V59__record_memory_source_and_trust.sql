-- Where each memory came from and how far it is trusted (docs/trust.md, "Source and trust"). A turn keeps how it
-- reached Memoir; a memory its source, which one (a key, an export, a kind) and its trust as a rank (1 low, 2 medium,
-- 3 high) that a search's minimum compares. Constant defaults: adding the columns rewrites no row.
alter table turns add column origin text not null default 'live'
    check (origin in ('live', 'mcp', 'chatgpt', 'claude', 'archive'));

alter table memory_records add column source text not null default 'unrecorded'
    check (source in ('user-turn', 'assistant-turn', 'import', 'client', 'mcp', 'feedback', 'archive', 'derived',
                      'unrecorded'));
alter table memory_records add column source_detail text;
alter table memory_records add column trust smallint not null default 2 check (trust between 1 and 3);

-- Older rows, as far as they can be told apart. Turns of a ChatGPT or Claude export are known by the import that
-- stored their session; an archive's restored turns are not told from live ones.
update turns t set origin = ci.source
  from conversation_imports ci
 where ci.session_id = t.session_id and ci.tenant_id = t.tenant_id;

-- A history memory by its turn: the user's live words high, the assistant's medium, an export's low.
update memory_records m
   set source = case when t.origin in ('chatgpt', 'claude') then 'import'
                     when t.role = 'USER' then 'user-turn' else 'assistant-turn' end,
       source_detail = case when t.origin in ('chatgpt', 'claude') then t.origin end,
       trust = case when t.origin in ('chatgpt', 'claude') then 1 when t.role = 'USER' then 3 else 2 end
  from turns t
 where m.kind = 'history' and t.tenant_id = m.tenant_id and t.id = m.turn_ids[1];

-- What a job made from turns: derived, trusted as the least of its turns. The rest (told directly through the API
-- or MCP, learned from feedback) stays unrecorded and medium.
update memory_records m
   set source = 'derived', source_detail = m.kind, trust = lowest.trust
  from (select r.id, r.tenant_id,
               min(case when t.origin in ('chatgpt', 'claude') then 1 when t.role = 'USER' then 3 else 2 end) as trust
          from memory_records r
          join turns t on t.tenant_id = r.tenant_id and t.id = any (r.turn_ids)
         where r.kind <> 'history'
         group by r.id, r.tenant_id) lowest
 where m.id = lowest.id and m.tenant_id = lowest.tenant_id;


-- What each memory given to a reply was trusted as when it was given (low, medium, high, in the order of
-- memory_ids); null for replies traced before.
alter table reply_traces add column memory_trust text[];
