-- The dense candidates: the memories nearest by their own vector, and those nearest by one of their passages (V29:
-- a long memory's passages), each memory at its best distance, with the passage that gave it (none for its own
-- vector). Each side is its own HNSW scan of the user's partition, filtered alike. A part of its own so that the
-- scale benchmark can time it alone and measure its recall against the same CTE planned without the index.
-- %1$s: filters.sql. Named parameters: :vector :model :denseCandidates :tenantId :userId.

dense as (
    select id, min(distance) as distance, (array_agg(passage order by distance))[1] as passage
    from (
        (select m.id, m.embedding <=> :vector as distance, null::int as passage
         from memory_records m
         where %1$s and m.embedding_model = :model
         order by m.embedding <=> :vector
         limit :denseCandidates)
        union all
        (select p.memory_id, p.embedding <=> :vector, p.position
         from memory_passages p
         join memory_records m on m.id = p.memory_id and m.tenant_id = p.tenant_id and m.user_id = p.user_id
         where p.tenant_id = :tenantId and p.user_id = :userId and p.embedding_model = :model and %1$s
         order by p.embedding <=> :vector
         limit :denseCandidates)
    ) candidates
    group by id
    order by distance, id
    limit :denseCandidates
)
