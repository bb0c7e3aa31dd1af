-- A memory's time span is read from its turns (V15) by their ids alone; the turns are the memory's tenant's, so the
-- lookup names the tenant too. On one PostgreSQL this only narrows the scan; on a database distributed by tenant
-- (docs/scaling.md) it keeps the trigger's query on the memory's own shard, where Citus allows a trigger on a shard
-- to read a co-located table: a lookup by id alone would be sent to every shard and is refused there.
-- (V43, not V40: versions 40 to 42 are taken by another branch's migrations.)
create or replace function memory_records_time_span() returns trigger language plpgsql as $$
begin
    if cardinality(new.turn_ids) > 0
       and (new.occurred_from is null or (tg_op = 'UPDATE' and new.turn_ids is distinct from old.turn_ids)) then
        select min(t.occurred_at), max(t.occurred_at) into new.occurred_from, new.occurred_to
        from turns t where t.tenant_id = new.tenant_id and t.id = any(new.turn_ids);
    end if;
    if tg_op = 'UPDATE' then
        new.occurred_from := coalesce(new.occurred_from, old.occurred_from);
    end if;
    new.occurred_from := coalesce(new.occurred_from, new.created_at);
    new.occurred_to := greatest(coalesce(new.occurred_to, new.occurred_from), new.occurred_from);
    return new;
end;
$$;
