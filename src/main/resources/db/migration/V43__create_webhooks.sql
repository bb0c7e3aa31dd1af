-- Webhooks (docs/api.md, "Webhooks"): a tenant's endpoints, and every delivery queued for them. Tenant's tables
-- (ShardReadySchemaTest): keyed by tenant, a delivery references its endpoint within the tenant and goes with it.
-- The secret is kept as it was given out: signing a delivery needs it (Standard Webhooks' HMAC-SHA256).
create table webhook_endpoints (
    id           uuid        not null,
    tenant_id    uuid        not null,
    url          text        not null,
    secret       text        not null,
    events       text[]      not null,
    include_text boolean     not null default false,
    created_at   timestamptz not null default now(),
    primary key (id, tenant_id)
);

-- Every memory change looks up the endpoints of its tenant.
create index webhook_endpoints_tenant on webhook_endpoints (tenant_id);

create table webhook_deliveries (
    id           uuid        not null,
    tenant_id    uuid        not null,
    endpoint_id  uuid        not null,
    event        text        not null,
    user_id      text,
    payload      text        not null,
    created_at   timestamptz not null default now(),
    attempts     int         not null default 0,
    last_status  int,
    last_error   text,
    delivered_at timestamptz,
    primary key (id, tenant_id),
    foreign key (endpoint_id, tenant_id) references webhook_endpoints (id, tenant_id) on delete cascade
);
create index webhook_deliveries_recent on webhook_deliveries (tenant_id, endpoint_id, created_at desc);
create index webhook_deliveries_user on webhook_deliveries (tenant_id, user_id) where delivered_at is null;
