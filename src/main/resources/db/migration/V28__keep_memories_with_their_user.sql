-- A memory belongs to one tenant's user for good. Changing its tenant_id or user_id would move the row to another
-- partition (V27), which PostgreSQL does as a delete and an insert: the delete's trigger would then remove the
-- revisions of a memory that still exists. Nothing in Memoir moves memories between users, so a change is refused.

create function memory_records_keep_owner() returns trigger language plpgsql as $$
begin
    if new.tenant_id is distinct from old.tenant_id or new.user_id is distinct from old.user_id then
        raise exception 'a memory cannot move to another tenant or user (memory %)', old.id
            using errcode = 'check_violation';
    end if;
    return new;
end;
$$;

create trigger memory_records_keep_owner before update of tenant_id, user_id on memory_records
    for each row execute function memory_records_keep_owner();
