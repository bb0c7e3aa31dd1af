-- What each context request (POST /context, the MCP get_context tool) was shown: its numbered entries in order, the
-- memories it held besides them, and those a reply later cited. Ids only, never memory text; erased with the user,
-- purged after memoir.context-traces.keep.
create table context_traces (
    id          uuid        not null,
    tenant_id   uuid        not null,
    user_id     text        not null,
    session_id  uuid,
    entry_ids   uuid[]      not null,
    scores      double precision[] not null,
    pinned_ids  uuid[]      not null,
    cited_ids   uuid[]      not null,
    created_at  timestamptz not null default now(),
    primary key (id, tenant_id)
);
create index context_traces_user on context_traces (tenant_id, user_id);
create index context_traces_created on context_traces (created_at);
do $$
begin
    if exists (select 1 from pg_extension where extname = 'citus') then
        if (select count(*) from pg_dist_partition where logicalrelid = 'sessions'::regclass) > 0 then
            perform create_distributed_table('context_traces', 'tenant_id', colocate_with => 'sessions');
        end if;
    end if;
end
$$;
