-- Facts (memories a client adds directly) are read by every session, like reflected memories, with their own top
-- K. Sessions stored before facts existed get the default, so that they recall the user's facts too.
update sessions
set settings = jsonb_set(settings, '{topK}', coalesce(settings -> 'topK', '{}'::jsonb) || '{"fact": 3}'::jsonb)
where not coalesce(settings -> 'topK' ? 'fact', false);

-- Lists are paged by keyset, newest first, on (created_at, id): each page continues an index scan where the last
-- one stopped instead of sorting all of a user's rows again. A user's memories were indexed by kind first, which
-- serves one kind but not a listing of every kind.
create index memory_records_user_newest_idx on memory_records (tenant_id, user_id, created_at desc, id desc);
drop index sessions_user_idx;
create index sessions_user_idx on sessions (tenant_id, user_id, created_at desc, id desc);
