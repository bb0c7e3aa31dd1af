-- Learning from the user's feedback (RAM): an episode per questioned reply, with its reasoning trace.
create table episodes (
    id                uuid primary key,
    tenant_id         uuid not null references tenants (id) on delete cascade,
    user_id           text not null,
    session_id        uuid not null references sessions (id) on delete cascade,
    question_turn_id  uuid not null,
    reply_turn_id     uuid not null unique,
    question          text not null,
    status            text not null check (status in ('OPEN', 'NEEDS_FEEDBACK', 'RESOLVED', 'EXHAUSTED')),
    trials            jsonb not null,
    learned           text,
    learned_memory_id uuid,
    created_at        timestamptz not null,
    updated_at        timestamptz not null
);

create table reply_feedback (
    id          uuid primary key,
    tenant_id   uuid not null references tenants (id) on delete cascade,
    turn_id     uuid not null references turns (id) on delete cascade,
    episode_id  uuid not null references episodes (id) on delete cascade,
    verdict     text,
    hint        text,
    answer      text,
    outcome     text not null,
    created_at  timestamptz not null
);

create index reply_feedback_turn_idx on reply_feedback (turn_id);

-- For each reply: the memories it was given, their scores, and which it cited (its retrieval trace).
create table reply_traces (
    turn_id     uuid primary key references turns (id) on delete cascade,
    memory_ids  uuid[] not null,
    scores      double precision[] not null,
    cited_ids   uuid[] not null
);
