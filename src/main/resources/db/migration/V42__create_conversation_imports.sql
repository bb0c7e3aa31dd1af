-- Which part of a conversation of an assistant's data export (ChatGPT, Claude) each imported session holds: the
-- export's conversation id is the import's key, so importing the same export again adds nothing, and a conversation
-- that has grown since imports only its new messages, into a new session (docs/api.md). Positions count the
-- messages of the conversation's dialogue path as the export holds them, skipped ones included. A tenant's table
-- (ShardReadySchemaTest): keyed by tenant, it goes with its session (a session's deletion, a user's erasure).
create table conversation_imports (
    session_id      uuid        not null,
    tenant_id       uuid        not null,
    user_id         text        not null,
    source          text        not null check (source in ('chatgpt', 'claude')),
    conversation_id text        not null,
    from_message    int         not null check (from_message >= 0),
    to_message      int         not null check (to_message > from_message),
    last_message_id text        not null,
    imported_at     timestamptz not null default now(),
    primary key (session_id, tenant_id),
    foreign key (session_id, tenant_id) references sessions (id, tenant_id) on delete cascade,
    -- Two imports of the same conversation at once: the second to commit a part finds it taken, and stores nothing.
    unique (tenant_id, user_id, source, conversation_id, from_message)
);
