-- A search ranks one user's memories, but the full-text index held every user's words: for a user with 100k
-- memories PostgreSQL ANDed the matching words' bitmap with a bitmap of all the user's rows (most of the lexical
-- ranking's time). With the tenant and user in the GIN index itself (btree_gin, a trusted extension), one scan
-- finds only that user's matching memories. The old index served no query without a user and goes.
create extension if not exists btree_gin;

create index memory_records_user_search_idx on memory_records using gin (tenant_id, user_id, search_vector);

drop index memory_records_search_idx;
