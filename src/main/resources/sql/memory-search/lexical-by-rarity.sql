-- The lexical candidates ranked by the rarity of the query words they contain, as BM25 weighs them (the default
-- memoir.search.lexical-ranking): each word counts ln(1 + (n - df + 0.5) / (df + 0.5)), df being how many of n of
-- the user's memories hold it. The counts come from the user's newest memories, at most :raritySample of them (all
-- of them for most users), so a name in every greeting counts for little and "Copenhagen" for much. The newest,
-- not any: read in the order of the user's index, the sample costs the same for every user, where an unordered one
-- was planned as a scan of the partition for a user who fills most of it. Every memory holding any query word is
-- read and scored, so the cost grows with how many of the user's memories hold one (bounding the rows read per
-- word was slower for mid-sized users: docs/scale-benchmark.md).
-- Ties go to ts_rank, which counts repetitions. The weights are materialised: inlined into the per-row sum,
-- PostgreSQL would count the sample again for every candidate.
-- %1$s: filters.sql. Named parameters: :raritySample :text :normalization :lexicalCandidates.

sample as (
    select m.search_vector from memory_records m where %1$s
    order by m.created_at desc limit :raritySample
), terms as materialized (
    select distinct lexeme, quote_literal(lexeme)::tsquery as query
    from unnest(tsvector_to_array(to_tsvector('english', :text))) as lexeme
), weights as materialized (
    select t.query, ln(1 + ((select count(*) from sample) - count(s.search_vector) + 0.5)
                           / (count(s.search_vector) + 0.5)) as idf
    from terms t left join sample s on s.search_vector @@ t.query
    group by t.lexeme, t.query
), lexical as (
    select m.id, (select sum(w.idf) from weights w where m.search_vector @@ w.query) as score,
           ts_rank(m.search_vector, q.query, :normalization) as tie
    from memory_records m,
         (select replace(plainto_tsquery('english', :text)::text, ' & ', ' | ')::tsquery as query) q
    where %1$s and m.search_vector @@ q.query
    order by score desc nulls last, tie desc, m.id
    limit :lexicalCandidates
)
