-- The lexical candidates ranked by one of PostgreSQL's ranking functions, which know no word rarity
-- (memoir.search.lexical-ranking ts_rank or ts_rank_cd). The query's words are OR-ed.
-- %1$s: filters.sql; %2$s: the function, ts_rank or ts_rank_cd.
-- Named parameters: :text :normalization :lexicalCandidates.

lexical as (
    select m.id, %2$s(m.search_vector, q.query, :normalization) as score
    from memory_records m,
         (select replace(plainto_tsquery('english', :text)::text, ' & ', ' | ')::tsquery as query) q
    where %1$s and m.search_vector @@ q.query
    order by score desc, m.id
    limit :lexicalCandidates
)
