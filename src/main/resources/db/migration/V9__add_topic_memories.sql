-- Topic memories (Reflective Memory Management) belong to one speaker of the dialogue.
alter table memory_records add column speaker text check (speaker in ('user', 'assistant'));

-- A merge keeps what it absorbed: the new summary and the turns it rested on.
alter table memory_revisions add column absorbed_text text;
alter table memory_revisions add column absorbed_turn_ids uuid[];

-- Personal summaries extracted from a closed session, kept so that a retried job applies each exactly once.
create table topic_extractions (
    id          uuid primary key,
    session_id  uuid not null references sessions (id) on delete cascade,
    speaker     text not null,
    created_at  timestamptz not null,
    unique (session_id, speaker)
);

create table topic_candidates (
    id          uuid primary key,
    session_id  uuid not null references sessions (id) on delete cascade,
    speaker     text not null,
    position    integer not null,
    summary     text not null,
    turn_ids    uuid[] not null,
    applied_at  timestamptz,
    unique (session_id, speaker, position)
);
