-- When a session's dialogue happened: its first and last turn's occurred_at, kept as turns are stored, so that a
-- session imported with last March's dates shows March, and a user's last words can be read per session without
-- scanning every turn.
alter table sessions add column first_turn_at timestamptz;
alter table sessions add column last_turn_at timestamptz;

update sessions s
set first_turn_at = span.first_at, last_turn_at = span.last_at
from (select session_id, min(occurred_at) as first_at, max(occurred_at) as last_at from turns group by session_id) span
where span.session_id = s.id;

create index sessions_user_last_turn_idx on sessions (tenant_id, user_id, last_turn_at);
