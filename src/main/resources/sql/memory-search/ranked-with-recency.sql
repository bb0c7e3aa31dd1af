-- A fourth ranking, when memoir.search.recency-weight is above 0: the fused candidates by when their dialogue
-- began, newest first, so that of two memories about the same thing the newer gains. Each candidate is looked up
-- by its key for its date.
-- Named parameters: :tenantId :userId :recencyWeight :rrfK.

dated as (
    select f.*, row_number() over (order by m.occurred_from desc, f.id) as recency_rank
    from fused f join memory_records m
        on m.id = f.id and m.tenant_id = :tenantId and m.user_id = :userId
), ranked as (
    select id, dense_rank, dense_score, passage, lexical_rank, lexical_score, lexical_coverage,
           period_rank, recency_rank, fused_score + :recencyWeight / (:rrfK + recency_rank) as fused_score
    from dated
)
