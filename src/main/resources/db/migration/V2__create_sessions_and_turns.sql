create table sessions (
    id          uuid primary key,
    tenant_id   uuid not null references tenants (id) on delete cascade,
    user_id     text not null,
    status      text not null check (status in ('OPEN', 'CLOSED')),
    settings    jsonb not null,
    created_at  timestamptz not null,
    updated_at  timestamptz not null,
    closed_at   timestamptz
);

create index sessions_user_idx on sessions (tenant_id, user_id, created_at desc);

create table turns (
    id          uuid primary key,
    session_id  uuid not null references sessions (id) on delete cascade,
    seq         integer not null,
    role        text not null check (role in ('USER', 'ASSISTANT')),
    content     text not null,
    created_at  timestamptz not null,
    unique (session_id, seq)
);
