-- During a rolling upgrade, instances from before V36 still run beside newer ones and insert rows without tenant_id;
-- these triggers fill it from the row's parent, as V36 did for the rows already stored, so that their writes do not
-- fail on V36's not-null constraint. They fire only for such rows (the WHEN clause): this version always gives the
-- tenant. A release that no longer needs to run beside pre-V36 instances drops them (and must before a distributed
-- database, docs/scaling.md).
create function fill_tenant_from_session() returns trigger language plpgsql as $$
begin
    select s.tenant_id into new.tenant_id from sessions s where s.id = new.session_id;
    return new;
end;
$$;

create function fill_tenant_from_turn() returns trigger language plpgsql as $$
begin
    select t.tenant_id into new.tenant_id from turns t where t.id = new.turn_id;
    return new;
end;
$$;

create function fill_tenant_from_memory() returns trigger language plpgsql as $$
begin
    select m.tenant_id into new.tenant_id from memory_records m where m.id = new.memory_id;
    return new;
end;
$$;

create trigger turns_fill_tenant before insert on turns
    for each row when (new.tenant_id is null) execute function fill_tenant_from_session();
create trigger memo_progress_fill_tenant before insert on memo_progress
    for each row when (new.tenant_id is null) execute function fill_tenant_from_session();
create trigger topic_extractions_fill_tenant before insert on topic_extractions
    for each row when (new.tenant_id is null) execute function fill_tenant_from_session();
create trigger topic_candidates_fill_tenant before insert on topic_candidates
    for each row when (new.tenant_id is null) execute function fill_tenant_from_session();
create trigger reply_traces_fill_tenant before insert on reply_traces
    for each row when (new.tenant_id is null) execute function fill_tenant_from_turn();
create trigger memory_revisions_fill_tenant before insert on memory_revisions
    for each row when (new.tenant_id is null) execute function fill_tenant_from_memory();

-- Jobs queued before V35 name no tenant; those of a session get its tenant, so that they count in its backlog.
update job_runs r set tenant_id = s.tenant_id from sessions s where s.id = r.session_id and r.tenant_id is null;
