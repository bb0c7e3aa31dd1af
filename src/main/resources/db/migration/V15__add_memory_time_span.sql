-- The span of dialogue time a memory records: a history record its turn's time, a summary or memo its turns'
-- first and last. A writer may give the span; otherwise it comes from the turns the memory rests on, and a
-- memory without turns (a correction learned from feedback) is dated when it was written.
alter table memory_records add column occurred_from timestamptz;
alter table memory_records add column occurred_to timestamptz;

create function memory_records_time_span() returns trigger language plpgsql as $$
begin
    if cardinality(new.turn_ids) > 0
       and (new.occurred_from is null or (tg_op = 'UPDATE' and new.turn_ids is distinct from old.turn_ids)) then
        select min(t.occurred_at), max(t.occurred_at) into new.occurred_from, new.occurred_to
        from turns t where t.id = any(new.turn_ids);
    end if;
    if tg_op = 'UPDATE' then
        new.occurred_from := coalesce(new.occurred_from, old.occurred_from);
    end if;
    new.occurred_from := coalesce(new.occurred_from, new.created_at);
    new.occurred_to := greatest(coalesce(new.occurred_to, new.occurred_from), new.occurred_from);
    return new;
end;
$$;

create trigger memory_records_time_span before insert or update of turn_ids, occurred_from, occurred_to
    on memory_records for each row execute function memory_records_time_span();

update memory_records m set occurred_from = span.first, occurred_to = span.last
from (select r.id, min(t.occurred_at) as first, max(t.occurred_at) as last
      from memory_records r join turns t on t.id = any(r.turn_ids) group by r.id) span
where span.id = m.id;
update memory_records set occurred_from = created_at, occurred_to = created_at where occurred_from is null;

alter table memory_records alter column occurred_from set not null;
alter table memory_records alter column occurred_to set not null;
create index memory_records_user_time_idx on memory_records (tenant_id, user_id, occurred_from);
