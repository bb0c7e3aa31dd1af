-- The learned reranker of each tenant: adaptation weights, shared by every replica, with a version for
-- optimistic updates.
create table reranker_models (
    tenant_id   uuid primary key references tenants (id) on delete cascade,
    version     bigint not null,
    updates     integer not null,
    dimensions  integer not null,
    baseline    double precision not null,
    weights     bytea,
    updated_at  timestamptz not null
);

-- One row per reranked reply: what retrieval offered, how the reranker scored it, what the reply was shown
-- and which memories it cited. This is the reranker's training data.
create table reranker_feedback (
    id              uuid primary key,
    tenant_id       uuid not null references tenants (id) on delete cascade,
    user_id         text not null,
    turn_id         uuid not null,
    query_embedding vector(${embeddingDimensions}) not null,
    candidate_ids   uuid[] not null,
    scores          double precision[] not null,
    shown_ids       uuid[] not null,
    cited_ids       uuid[] not null,
    model_version   bigint not null,
    trained_at      timestamptz,
    created_at      timestamptz not null
);

create index reranker_feedback_pending_idx on reranker_feedback (tenant_id, created_at) where trained_at is null;
create index reranker_feedback_recent_idx on reranker_feedback (tenant_id, created_at desc);
create index reranker_feedback_query_idx on reranker_feedback using hnsw (query_embedding vector_cosine_ops);
