-- A memory can stop being true without being deleted: a newer memory supersedes it (superseded_by), and it was
-- valid until what superseded it was said (valid_to). Both are null while the memory is live. A memory can also
-- carry an expiry (expires_at): past it, it is invisible at once, and the retention job deletes it.
-- New nullable columns without a default: PostgreSQL adds them without rewriting the partitions.

alter table memory_records
    add column valid_to      timestamptz,
    add column superseded_by uuid,
    add column expires_at    timestamptz;

alter table memory_records add constraint memory_records_validity_check
    check ((valid_to is null) = (superseded_by is null));

-- What a memory superseded (the inspector's chain) is read within its user's partition.
create index memory_records_superseded_by_idx on memory_records (tenant_id, user_id, superseded_by)
    where superseded_by is not null;

-- The retention job finds what has expired without reading every memory.
create index memory_records_expires_at_idx on memory_records (expires_at) where expires_at is not null;
