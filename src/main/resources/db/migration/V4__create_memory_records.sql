create table memory_records (
    id          uuid primary key,
    tenant_id   uuid not null references tenants (id) on delete cascade,
    user_id     text not null,
    kind        text not null,
    text        text not null,
    embedding   vector(${embeddingDimensions}) not null,
    session_id  uuid,
    turn_ids    uuid[] not null default '{}',
    -- Lets a retried memory job recognise what it already wrote.
    dedup_key   text unique,
    created_at  timestamptz not null,
    updated_at  timestamptz not null
);

create index memory_records_user_kind_idx on memory_records (tenant_id, user_id, kind, created_at desc);
create index memory_records_embedding_idx on memory_records using hnsw (embedding vector_cosine_ops);
