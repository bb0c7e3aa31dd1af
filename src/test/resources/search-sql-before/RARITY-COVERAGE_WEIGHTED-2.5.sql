select set_config('plan_cache_mode', 'force_custom_plan', true), set_config('max_parallel_workers_per_gather', '0', true), set_config('hnsw.ef_search', :efSearch, true)
-- params {efSearch=400}
-- next
with dense as (
    select id, min(distance) as distance, (array_agg(passage order by distance))[1] as passage
    from (
        (select m.id, m.embedding <=> :vector as distance, null::int as passage
         from memory_records m
         where m.tenant_id = :tenantId and m.user_id = :userId and m.kind in (:kinds)
  and not (m.turn_ids && :excludedTurnIds)
  and (cast(:speaker as text) is null or m.speaker = cast(:speaker as text))
  and (cast(:sessionId as uuid) is null or m.session_id = cast(:sessionId as uuid))
  and (cast(:from as timestamptz) is null or m.occurred_to >= cast(:from as timestamptz))
  and (cast(:to as timestamptz) is null or m.occurred_from < cast(:to as timestamptz))
  and (m.expires_at is null or m.expires_at > now())
  and (cast(:includeSuperseded as boolean)
       or (cast(:asOf as timestamptz) is null and m.valid_to is null)
       or (m.occurred_from <= cast(:asOf as timestamptz)
           and (m.valid_to is null or m.valid_to > cast(:asOf as timestamptz)))) and m.embedding_model = :model
         order by m.embedding <=> :vector
         limit :denseCandidates)
        union all
        (select p.memory_id, p.embedding <=> :vector, p.position
         from memory_passages p
         join memory_records m on m.id = p.memory_id and m.tenant_id = p.tenant_id and m.user_id = p.user_id
         where p.tenant_id = :tenantId and p.user_id = :userId and p.embedding_model = :model and m.tenant_id = :tenantId and m.user_id = :userId and m.kind in (:kinds)
  and not (m.turn_ids && :excludedTurnIds)
  and (cast(:speaker as text) is null or m.speaker = cast(:speaker as text))
  and (cast(:sessionId as uuid) is null or m.session_id = cast(:sessionId as uuid))
  and (cast(:from as timestamptz) is null or m.occurred_to >= cast(:from as timestamptz))
  and (cast(:to as timestamptz) is null or m.occurred_from < cast(:to as timestamptz))
  and (m.expires_at is null or m.expires_at > now())
  and (cast(:includeSuperseded as boolean)
       or (cast(:asOf as timestamptz) is null and m.valid_to is null)
       or (m.occurred_from <= cast(:asOf as timestamptz)
           and (m.valid_to is null or m.valid_to > cast(:asOf as timestamptz))))
         order by p.embedding <=> :vector
         limit :denseCandidates)
    ) candidates
    group by id
    order by distance, id
    limit :denseCandidates
), dense_ranked as (
    select id, distance, passage, row_number() over (order by distance, id) as rank from dense
), period_ranked as (
    select id, row_number() over (order by distance, id) as rank
    from (select m.id, m.embedding <=> :vector as distance
          from memory_records m
          where m.tenant_id = :tenantId and m.user_id = :userId and m.kind in (:kinds)
  and not (m.turn_ids && :excludedTurnIds)
  and (cast(:speaker as text) is null or m.speaker = cast(:speaker as text))
  and (cast(:sessionId as uuid) is null or m.session_id = cast(:sessionId as uuid))
  and (cast(:from as timestamptz) is null or m.occurred_to >= cast(:from as timestamptz))
  and (cast(:to as timestamptz) is null or m.occurred_from < cast(:to as timestamptz))
  and (m.expires_at is null or m.expires_at > now())
  and (cast(:includeSuperseded as boolean)
       or (cast(:asOf as timestamptz) is null and m.valid_to is null)
       or (m.occurred_from <= cast(:asOf as timestamptz)
           and (m.valid_to is null or m.valid_to > cast(:asOf as timestamptz)))) and m.embedding_model = :model
            and m.occurred_from >= cast(:periodFrom as timestamptz)
            and m.occurred_from < cast(:periodTo as timestamptz)
          order by m.embedding <=> :vector
          limit :periodCandidates) in_period
), sample as (
    select m.search_vector from memory_records m where m.tenant_id = :tenantId and m.user_id = :userId and m.kind in (:kinds)
  and not (m.turn_ids && :excludedTurnIds)
  and (cast(:speaker as text) is null or m.speaker = cast(:speaker as text))
  and (cast(:sessionId as uuid) is null or m.session_id = cast(:sessionId as uuid))
  and (cast(:from as timestamptz) is null or m.occurred_to >= cast(:from as timestamptz))
  and (cast(:to as timestamptz) is null or m.occurred_from < cast(:to as timestamptz))
  and (m.expires_at is null or m.expires_at > now())
  and (cast(:includeSuperseded as boolean)
       or (cast(:asOf as timestamptz) is null and m.valid_to is null)
       or (m.occurred_from <= cast(:asOf as timestamptz)
           and (m.valid_to is null or m.valid_to > cast(:asOf as timestamptz))))
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
    where m.tenant_id = :tenantId and m.user_id = :userId and m.kind in (:kinds)
  and not (m.turn_ids && :excludedTurnIds)
  and (cast(:speaker as text) is null or m.speaker = cast(:speaker as text))
  and (cast(:sessionId as uuid) is null or m.session_id = cast(:sessionId as uuid))
  and (cast(:from as timestamptz) is null or m.occurred_to >= cast(:from as timestamptz))
  and (cast(:to as timestamptz) is null or m.occurred_from < cast(:to as timestamptz))
  and (m.expires_at is null or m.expires_at > now())
  and (cast(:includeSuperseded as boolean)
       or (cast(:asOf as timestamptz) is null and m.valid_to is null)
       or (m.occurred_from <= cast(:asOf as timestamptz)
           and (m.valid_to is null or m.valid_to > cast(:asOf as timestamptz)))) and m.search_vector @@ q.query
    order by score desc nulls last, tie desc, m.id
    limit :lexicalCandidates
), lexical_ranked as (
    select id, score, row_number() over (order by score desc, id) as rank, score / nullif((select sum(w.idf) from weights w), 0) as coverage
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
), dated as (
    select f.*, row_number() over (order by m.occurred_from desc, f.id) as recency_rank
    from fused f join memory_records m
        on m.id = f.id and m.tenant_id = :tenantId and m.user_id = :userId
), ranked as (
    select id, dense_rank, dense_score, passage, lexical_rank, lexical_score, lexical_coverage,
           period_rank, recency_rank, fused_score + :recencyWeight / (:rrfK + recency_rank) as fused_score
    from dated
), best as (
    select * from ranked
    order by fused_score desc, dense_rank nulls last, lexical_rank nulls last, id
    limit :limit
)
select m.id, m.kind, m.topic, m.speaker, m.text, m.session_id, m.turn_ids, m.version, m.created_at,
m.updated_at, m.occurred_from, m.occurred_to, m.valid_to, m.superseded_by, m.expires_at,
array(select s.id from memory_records s
      where s.tenant_id = :tenantId and s.user_id = :userId and s.superseded_by = m.id
      order by s.valid_to, s.id) as supersedes,
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
-- params {asOf=null, denseCandidates=100, denseWeight=1.0, excludedTurnIds={}, from=null, includeSuperseded=false, kinds=[fact], lexicalCandidates=100, lexicalWeight=1.0, limit=10, model=bge-small-en-v1.5, normalization=0, periodCandidates=100, periodFrom=2022-10-01T00:00Z, periodTo=2022-11-01T00:00Z, periodWeight=1.0, raritySample=2000, recencyWeight=2.5, rrfK=20, sessionId=null, speaker=null, tenantId=00000000-0000-0000-0000-00000000000a, text=What did Ana buy in October 2022?, to=null, userId=ana, vector=[0.25,-0.5]}
-- next
select set_config('plan_cache_mode', 'force_custom_plan', true), set_config('max_parallel_workers_per_gather', '0', true), set_config('hnsw.ef_search', :efSearch, true)
-- params {efSearch=400}
-- next
explain with dense as (
    select id, min(distance) as distance, (array_agg(passage order by distance))[1] as passage
    from (
        (select m.id, m.embedding <=> :vector as distance, null::int as passage
         from memory_records m
         where m.tenant_id = :tenantId and m.user_id = :userId and m.kind in (:kinds)
  and not (m.turn_ids && :excludedTurnIds)
  and (cast(:speaker as text) is null or m.speaker = cast(:speaker as text))
  and (cast(:sessionId as uuid) is null or m.session_id = cast(:sessionId as uuid))
  and (cast(:from as timestamptz) is null or m.occurred_to >= cast(:from as timestamptz))
  and (cast(:to as timestamptz) is null or m.occurred_from < cast(:to as timestamptz))
  and (m.expires_at is null or m.expires_at > now())
  and (cast(:includeSuperseded as boolean)
       or (cast(:asOf as timestamptz) is null and m.valid_to is null)
       or (m.occurred_from <= cast(:asOf as timestamptz)
           and (m.valid_to is null or m.valid_to > cast(:asOf as timestamptz)))) and m.embedding_model = :model
         order by m.embedding <=> :vector
         limit :denseCandidates)
        union all
        (select p.memory_id, p.embedding <=> :vector, p.position
         from memory_passages p
         join memory_records m on m.id = p.memory_id and m.tenant_id = p.tenant_id and m.user_id = p.user_id
         where p.tenant_id = :tenantId and p.user_id = :userId and p.embedding_model = :model and m.tenant_id = :tenantId and m.user_id = :userId and m.kind in (:kinds)
  and not (m.turn_ids && :excludedTurnIds)
  and (cast(:speaker as text) is null or m.speaker = cast(:speaker as text))
  and (cast(:sessionId as uuid) is null or m.session_id = cast(:sessionId as uuid))
  and (cast(:from as timestamptz) is null or m.occurred_to >= cast(:from as timestamptz))
  and (cast(:to as timestamptz) is null or m.occurred_from < cast(:to as timestamptz))
  and (m.expires_at is null or m.expires_at > now())
  and (cast(:includeSuperseded as boolean)
       or (cast(:asOf as timestamptz) is null and m.valid_to is null)
       or (m.occurred_from <= cast(:asOf as timestamptz)
           and (m.valid_to is null or m.valid_to > cast(:asOf as timestamptz))))
         order by p.embedding <=> :vector
         limit :denseCandidates)
    ) candidates
    group by id
    order by distance, id
    limit :denseCandidates
), dense_ranked as (
    select id, distance, passage, row_number() over (order by distance, id) as rank from dense
), period_ranked as (
    select id, row_number() over (order by distance, id) as rank
    from (select m.id, m.embedding <=> :vector as distance
          from memory_records m
          where m.tenant_id = :tenantId and m.user_id = :userId and m.kind in (:kinds)
  and not (m.turn_ids && :excludedTurnIds)
  and (cast(:speaker as text) is null or m.speaker = cast(:speaker as text))
  and (cast(:sessionId as uuid) is null or m.session_id = cast(:sessionId as uuid))
  and (cast(:from as timestamptz) is null or m.occurred_to >= cast(:from as timestamptz))
  and (cast(:to as timestamptz) is null or m.occurred_from < cast(:to as timestamptz))
  and (m.expires_at is null or m.expires_at > now())
  and (cast(:includeSuperseded as boolean)
       or (cast(:asOf as timestamptz) is null and m.valid_to is null)
       or (m.occurred_from <= cast(:asOf as timestamptz)
           and (m.valid_to is null or m.valid_to > cast(:asOf as timestamptz)))) and m.embedding_model = :model
            and m.occurred_from >= cast(:periodFrom as timestamptz)
            and m.occurred_from < cast(:periodTo as timestamptz)
          order by m.embedding <=> :vector
          limit :periodCandidates) in_period
), sample as (
    select m.search_vector from memory_records m where m.tenant_id = :tenantId and m.user_id = :userId and m.kind in (:kinds)
  and not (m.turn_ids && :excludedTurnIds)
  and (cast(:speaker as text) is null or m.speaker = cast(:speaker as text))
  and (cast(:sessionId as uuid) is null or m.session_id = cast(:sessionId as uuid))
  and (cast(:from as timestamptz) is null or m.occurred_to >= cast(:from as timestamptz))
  and (cast(:to as timestamptz) is null or m.occurred_from < cast(:to as timestamptz))
  and (m.expires_at is null or m.expires_at > now())
  and (cast(:includeSuperseded as boolean)
       or (cast(:asOf as timestamptz) is null and m.valid_to is null)
       or (m.occurred_from <= cast(:asOf as timestamptz)
           and (m.valid_to is null or m.valid_to > cast(:asOf as timestamptz))))
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
    where m.tenant_id = :tenantId and m.user_id = :userId and m.kind in (:kinds)
  and not (m.turn_ids && :excludedTurnIds)
  and (cast(:speaker as text) is null or m.speaker = cast(:speaker as text))
  and (cast(:sessionId as uuid) is null or m.session_id = cast(:sessionId as uuid))
  and (cast(:from as timestamptz) is null or m.occurred_to >= cast(:from as timestamptz))
  and (cast(:to as timestamptz) is null or m.occurred_from < cast(:to as timestamptz))
  and (m.expires_at is null or m.expires_at > now())
  and (cast(:includeSuperseded as boolean)
       or (cast(:asOf as timestamptz) is null and m.valid_to is null)
       or (m.occurred_from <= cast(:asOf as timestamptz)
           and (m.valid_to is null or m.valid_to > cast(:asOf as timestamptz)))) and m.search_vector @@ q.query
    order by score desc nulls last, tie desc, m.id
    limit :lexicalCandidates
), lexical_ranked as (
    select id, score, row_number() over (order by score desc, id) as rank, score / nullif((select sum(w.idf) from weights w), 0) as coverage
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
), dated as (
    select f.*, row_number() over (order by m.occurred_from desc, f.id) as recency_rank
    from fused f join memory_records m
        on m.id = f.id and m.tenant_id = :tenantId and m.user_id = :userId
), ranked as (
    select id, dense_rank, dense_score, passage, lexical_rank, lexical_score, lexical_coverage,
           period_rank, recency_rank, fused_score + :recencyWeight / (:rrfK + recency_rank) as fused_score
    from dated
), best as (
    select * from ranked
    order by fused_score desc, dense_rank nulls last, lexical_rank nulls last, id
    limit :limit
)
select m.id, m.kind, m.topic, m.speaker, m.text, m.session_id, m.turn_ids, m.version, m.created_at,
m.updated_at, m.occurred_from, m.occurred_to, m.valid_to, m.superseded_by, m.expires_at,
array(select s.id from memory_records s
      where s.tenant_id = :tenantId and s.user_id = :userId and s.superseded_by = m.id
      order by s.valid_to, s.id) as supersedes,
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
-- params {asOf=null, denseCandidates=100, denseWeight=1.0, excludedTurnIds={}, from=null, includeSuperseded=false, kinds=[fact], lexicalCandidates=0, lexicalWeight=1.0, limit=10, model=bge-small-en-v1.5, normalization=0, periodCandidates=0, periodFrom=null, periodTo=null, periodWeight=1.0, raritySample=2000, recencyWeight=2.5, rrfK=20, sessionId=null, speaker=null, tenantId=00000000-0000-0000-0000-00000000000a, text=What did Ana buy in October 2022?, to=null, userId=ana, vector=[0.25,-0.5]}
-- next
select m.id, m.kind, m.topic, m.speaker, m.text, m.session_id, m.turn_ids, m.version, m.created_at,
m.updated_at, m.occurred_from, m.occurred_to, m.valid_to, m.superseded_by, m.expires_at,
array(select s.id from memory_records s
      where s.tenant_id = :tenantId and s.user_id = :userId and s.superseded_by = m.id
      order by s.valid_to, s.id) as supersedes, null as similarity, null as dense_rank,
       null as dense_score, null as lexical_rank, null as lexical_score,
       null as lexical_coverage, null as period_rank, null as recency_rank, 0 as fused_score,
       null as passage,
       null as passage_start, null as passage_end
from memory_records m
where m.tenant_id = :tenantId and m.user_id = :userId and m.kind in (:kinds)
  and not (m.turn_ids && :excludedTurnIds)
  and (cast(:speaker as text) is null or m.speaker = cast(:speaker as text))
  and (cast(:sessionId as uuid) is null or m.session_id = cast(:sessionId as uuid))
  and (cast(:from as timestamptz) is null or m.occurred_to >= cast(:from as timestamptz))
  and (cast(:to as timestamptz) is null or m.occurred_from < cast(:to as timestamptz))
  and (m.expires_at is null or m.expires_at > now())
  and (cast(:includeSuperseded as boolean)
       or (cast(:asOf as timestamptz) is null and m.valid_to is null)
       or (m.occurred_from <= cast(:asOf as timestamptz)
           and (m.valid_to is null or m.valid_to > cast(:asOf as timestamptz))))
order by m.created_at desc, m.id desc
limit :limit
-- params {asOf=null, beforeCreatedAt=null, beforeId=null, excludedTurnIds={}, from=null, includeSuperseded=false, kinds=[fact], limit=10, sessionId=null, speaker=null, tenantId=00000000-0000-0000-0000-00000000000a, to=null, userId=ana}
-- next
select m.id, m.kind, m.topic, m.speaker, m.text, m.session_id, m.turn_ids, m.version, m.created_at,
m.updated_at, m.occurred_from, m.occurred_to, m.valid_to, m.superseded_by, m.expires_at,
array(select s.id from memory_records s
      where s.tenant_id = :tenantId and s.user_id = :userId and s.superseded_by = m.id
      order by s.valid_to, s.id) as supersedes, null as similarity, null as dense_rank,
       null as dense_score, null as lexical_rank, null as lexical_score,
       null as lexical_coverage, null as period_rank, null as recency_rank, 0 as fused_score,
       null as passage,
       null as passage_start, null as passage_end
from memory_records m
where m.tenant_id = :tenantId and m.user_id = :userId and m.kind in (:kinds)
  and not (m.turn_ids && :excludedTurnIds)
  and (cast(:speaker as text) is null or m.speaker = cast(:speaker as text))
  and (cast(:sessionId as uuid) is null or m.session_id = cast(:sessionId as uuid))
  and (cast(:from as timestamptz) is null or m.occurred_to >= cast(:from as timestamptz))
  and (cast(:to as timestamptz) is null or m.occurred_from < cast(:to as timestamptz))
  and (m.expires_at is null or m.expires_at > now())
  and (cast(:includeSuperseded as boolean)
       or (cast(:asOf as timestamptz) is null and m.valid_to is null)
       or (m.occurred_from <= cast(:asOf as timestamptz)
           and (m.valid_to is null or m.valid_to > cast(:asOf as timestamptz)))) and (m.created_at, m.id) < (cast(:beforeCreatedAt as timestamptz), cast(:beforeId as uuid))
order by m.created_at desc, m.id desc
limit :limit
-- params {asOf=null, beforeCreatedAt=2024-01-01T00:00Z, beforeId=00000000-0000-0000-0000-00000000000b, excludedTurnIds={}, from=null, includeSuperseded=false, kinds=[fact], limit=10, sessionId=null, speaker=null, tenantId=00000000-0000-0000-0000-00000000000a, to=null, userId=ana}