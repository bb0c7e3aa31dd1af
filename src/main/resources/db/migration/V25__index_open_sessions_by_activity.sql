-- The idle-session job looks for open sessions without a turn for a while; closed ones, the vast majority, are
-- left out of the index.
create index sessions_open_by_activity_idx on sessions (updated_at) where status = 'OPEN';
