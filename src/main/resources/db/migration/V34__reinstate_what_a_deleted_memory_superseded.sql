-- A memory superseded by one that is then deleted (by a client, with its session, or by the retention job) is
-- live again: what superseded it is gone, and nothing else would ever show it. Erasing a user deletes both.

create function memory_records_reinstate_superseded() returns trigger language plpgsql as $$
begin
    update memory_records set superseded_by = null, valid_to = null
    where tenant_id = old.tenant_id and user_id = old.user_id and superseded_by = old.id;
    return null;
end;
$$;

create trigger memory_records_reinstate_superseded after delete on memory_records
    for each row execute function memory_records_reinstate_superseded();
