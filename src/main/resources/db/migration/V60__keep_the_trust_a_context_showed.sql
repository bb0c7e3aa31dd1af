-- What each numbered entry of a context request was trusted as when it was shown (low, medium, high, in the order of
-- entry_ids), and the minimum the request read with; null for traces from before.
alter table context_traces add column entry_trust text[];
alter table context_traces add column min_trust text check (min_trust in ('low', 'medium', 'high'));
