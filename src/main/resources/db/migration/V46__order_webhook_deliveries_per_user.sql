-- Webhook deliveries in order per endpoint and user (docs/api.md, "Webhooks"). Each delivery that names a user takes
-- the next number of its (endpoint, user) stream. The stream's row is updated in the transaction that queues the
-- delivery, so it stays locked until that transaction ends: of two transactions queueing for the same user, the
-- second waits, and numbers follow the order in which the changes commit, on one instance or several.
create table webhook_streams (
    tenant_id   uuid   not null,
    endpoint_id uuid   not null,
    user_id     text   not null,
    last_seq    bigint not null,
    primary key (tenant_id, endpoint_id, user_id)
);
do $$
begin
    if exists (select 1 from pg_extension where extname = 'citus') then
        if (select count(*) from pg_dist_partition where logicalrelid = 'sessions'::regclass) > 0 then
            perform create_distributed_table('webhook_streams', 'tenant_id', colocate_with => 'sessions');
        end if;
    end if;
end
$$;
alter table webhook_streams add foreign key (endpoint_id, tenant_id) references webhook_endpoints (id, tenant_id)
    on delete cascade;

-- Null for a delivery that names no user (webhook.test), which waits for nothing and holds back nothing.
alter table webhook_deliveries add column seq bigint;

-- A delivery looks for the earlier ones of its stream that are still undelivered, and for the last delivered one.
create index webhook_deliveries_stream on webhook_deliveries (tenant_id, endpoint_id, user_id, seq);
