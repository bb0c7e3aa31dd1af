-- The conditions that every part of a memory search, and the newest-first list, applies to the memories it reads
-- (alias m): the tenant and the user, the kinds, the search's own filters, never an expired or a quarantined memory
-- (V57), never one trusted less than the search's minimum (V59; null for any), and a superseded one only when the
-- search asks for it (asOf or includeSuperseded).
-- Named parameters: :tenantId :userId :kinds :excludedTurnIds :speaker :sessionId :from :to :minTrust
-- :includeSuperseded :asOf. Each part is loaded without this header (HybridSearchRepository, bench/scale/search_sql.py).

m.tenant_id = :tenantId and m.user_id = :userId and m.kind in (:kinds)
  and not (m.turn_ids && :excludedTurnIds)
  and (cast(:speaker as text) is null or m.speaker = cast(:speaker as text))
  and (cast(:sessionId as uuid) is null or m.session_id = cast(:sessionId as uuid))
  and (cast(:from as timestamptz) is null or m.occurred_to >= cast(:from as timestamptz))
  and (cast(:to as timestamptz) is null or m.occurred_from < cast(:to as timestamptz))
  and (m.expires_at is null or m.expires_at > now())
  and m.screening is distinct from 'quarantined'
  and (cast(:minTrust as smallint) is null or m.trust >= cast(:minTrust as smallint))
  and (cast(:includeSuperseded as boolean)
       or (cast(:asOf as timestamptz) is null and m.valid_to is null)
       or (m.occurred_from <= cast(:asOf as timestamptz)
           and (m.valid_to is null or m.valid_to > cast(:asOf as timestamptz))))
