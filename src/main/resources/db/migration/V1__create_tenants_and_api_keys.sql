create table tenants (
    id          uuid primary key,
    name        text not null,
    created_at  timestamptz not null default now()
);

-- Keys are random and long, so a plain SHA-256 digest is enough to keep them useless if the table leaks.
create table api_keys (
    id          uuid primary key,
    tenant_id   uuid not null references tenants (id) on delete cascade,
    key_hash    text not null unique,
    key_prefix  text not null,
    created_at  timestamptz not null default now(),
    revoked_at  timestamptz
);

create index api_keys_tenant_idx on api_keys (tenant_id);
