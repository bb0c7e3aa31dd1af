-- A revision references its memory by the memory's whole key, tenant and user included, as a passage does (V29), so
-- that a revision of no memory cannot be stored and goes with its memory on delete. Since V27 partitioned
-- memory_records nothing referenced it: a trigger deleted revisions with their memory, but nothing refused one that
-- named no memory of its user, which an import let in (an archive's revision naming a memory the archive did not
-- hold). No endpoint reached such a revision and erasing the user left it behind; those are deleted here.
alter table memory_revisions add column user_id text;
update memory_revisions r set user_id = m.user_id
from memory_records m where m.id = r.memory_id and m.tenant_id = r.tenant_id;
delete from memory_revisions where user_id is null;
alter table memory_revisions alter column user_id set not null;
alter table memory_revisions add foreign key (memory_id, tenant_id, user_id)
    references memory_records (id, tenant_id, user_id) on delete cascade;

-- The foreign key's cascade now deletes a memory's revisions, which V27's trigger did.
drop trigger memory_records_delete_revisions on memory_records;
drop function memory_records_delete_revisions();

-- During a rolling upgrade, instances from before this version still insert revisions without user_id; this trigger
-- fills it from the memory, as V38's fill the tenant (which runs first: triggers fire in name order). A revision of
-- no memory keeps a null user and is refused.
create function fill_user_from_memory() returns trigger language plpgsql as $$
begin
    select m.user_id into new.user_id from memory_records m where m.id = new.memory_id and m.tenant_id = new.tenant_id;
    return new;
end;
$$;

create trigger memory_revisions_fill_user before insert on memory_revisions
    for each row when (new.user_id is null) execute function fill_user_from_memory();
