-- The hybrid memory search, one statement (HybridSearchRepository; why it is built so: its Javadoc): the dense,
-- the period and the lexical rankings fused by reciprocal rank, optionally ranked again by recency, and the best
-- :limit joined back to their rows.
-- %1$s: filters.sql; %2$s: lexical-by-rarity.sql or lexical-by-function.sql; %3$s: a memory's lexical coverage
-- (lexical-coverage.sql, or 1); %4$s: columns.sql; %5$s: ranked.sql or ranked-with-recency.sql; %6$s: dense.sql.
-- Named parameters, besides those of the parts: :vector :model :periodFrom :periodTo :periodCandidates
-- :denseWeight :lexicalWeight :periodWeight :rrfK :limit :tenantId :userId.

with %6$s, dense_ranked as (
    select id, distance, passage, row_number() over (order by distance, id) as rank from dense
), period_ranked as (
    select id, row_number() over (order by distance, id) as rank
    from (select m.id, m.embedding <=> :vector as distance
          from memory_records m
          where %1$s and m.embedding_model = :model
            and m.occurred_from >= cast(:periodFrom as timestamptz)
            and m.occurred_from < cast(:periodTo as timestamptz)
          order by m.embedding <=> :vector
          limit :periodCandidates) in_period
), %2$s, lexical_ranked as (
    select id, score, row_number() over (order by score desc, id) as rank, %3$s as coverage
    from lexical
), fused as (
    select coalesce(d.id, l.id, t.id) as id, d.rank as dense_rank, 1 - d.distance as dense_score,
           d.passage, l.rank as lexical_rank, l.score as lexical_score, l.coverage as lexical_coverage,
           t.rank as period_rank,
           coalesce(:denseWeight / (:rrfK + d.rank), 0)
               + coalesce(:lexicalWeight * l.coverage / (:rrfK + l.rank), 0)
               + coalesce(:periodWeight / (:rrfK + t.rank), 0) as fused_score
    from dense_ranked d full join lexical_ranked l on l.id = d.id
    full join period_ranked t on t.id = coalesce(d.id, l.id)
), %5$s, best as (
    select * from ranked
    order by fused_score desc, dense_rank nulls last, lexical_rank nulls last, id
    limit :limit
)
select %4$s,
       case when m.embedding_model = :model
            then greatest(1 - (m.embedding <=> :vector), coalesce(f.dense_score, -1)) end as similarity,
       f.dense_rank, f.dense_score, f.lexical_rank, f.lexical_score, f.lexical_coverage, f.period_rank,
       f.recency_rank, f.fused_score,
       f.passage, p.start_char as passage_start, p.end_char as passage_end
from best f join memory_records m
    on m.id = f.id and m.tenant_id = :tenantId and m.user_id = :userId
left join memory_passages p
    on p.memory_id = f.id and p.position = f.passage and p.tenant_id = :tenantId and p.user_id = :userId
order by f.fused_score desc, f.dense_rank nulls last, f.lexical_rank nulls last, m.id
