-- The fused candidates as they are, without a recency ranking (memoir.search.recency-weight 0).

ranked as (select *, null::bigint as recency_rank from fused)
