-- What each tenant's model calls and embedding batches used (docs/running.md, "Usage"): usage_calls holds one row
-- per request for memoir.usage.keep-calls (then purged), usage_hours the sums per hour, kept. Rows are written in
-- batches by each instance every memoir.usage.flush-every; an hour's row is added to by every instance.
create table usage_calls (
    tenant_id         uuid        not null,
    id                uuid        not null,
    called_at         timestamptz not null,
    user_id           text,
    session_id        uuid,
    kind              text        not null check (kind in ('chat', 'embedding')),
    step              text        not null,
    model             text        not null,
    prompt_tokens     bigint      not null,
    completion_tokens bigint      not null,
    counted_by        text        not null check (counted_by in ('server', 'service')),
    duration_ms       bigint      not null,
    failed            boolean     not null,
    primary key (tenant_id, id)
);
create index usage_calls_called_at_idx on usage_calls (called_at);

-- user_id '' for calls of no one user (a tenant's own work).
create table usage_hours (
    tenant_id          uuid        not null,
    hour               timestamptz not null,
    user_id            text        not null,
    kind               text        not null check (kind in ('chat', 'embedding')),
    step               text        not null,
    model              text        not null,
    calls              bigint      not null,
    failed_calls       bigint      not null,
    prompt_tokens      bigint      not null,
    completion_tokens  bigint      not null,
    service_counted    bigint      not null,
    duration_ms        bigint      not null,
    primary key (tenant_id, hour, user_id, kind, step, model)
);

do $$
begin
    if exists (select 1 from pg_extension where extname = 'citus') then
        if (select count(*) from pg_dist_partition where logicalrelid = 'sessions'::regclass) > 0 then
            perform create_distributed_table('usage_calls', 'tenant_id', colocate_with => 'sessions');
            perform create_distributed_table('usage_hours', 'tenant_id', colocate_with => 'sessions');
        end if;
    end if;
end
$$;
