-- A memory's columns as views show them (alias m), with the memories it superseded (on the partial index of V32).
-- The user is named by parameter, not by the row: then the planner reads that one partition.
-- Named parameters: :tenantId :userId.

m.id, m.kind, m.topic, m.speaker, m.text, m.session_id, m.turn_ids, m.version, m.created_at,
m.updated_at, m.occurred_from, m.occurred_to, m.valid_to, m.superseded_by, m.expires_at, m.screening, m.screening_signs,
m.source, m.source_detail, m.trust,
array(select s.id from memory_records s
      where s.tenant_id = :tenantId and s.user_id = :userId and s.superseded_by = m.id
      order by s.valid_to, s.id) as supersedes
