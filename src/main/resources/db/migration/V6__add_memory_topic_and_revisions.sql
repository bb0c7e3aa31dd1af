-- Memos and topic memories carry a topic; edits, merges and recursive-summary versions keep a revision trail.
alter table memory_records add column topic text;
alter table memory_records add column version integer not null default 1;

create table memory_revisions (
    id          uuid primary key,
    memory_id   uuid not null references memory_records (id) on delete cascade,
    version     integer not null,
    text        text not null,
    session_id  uuid,
    reason      text not null,
    created_at  timestamptz not null,
    unique (memory_id, version)
);
