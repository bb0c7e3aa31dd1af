-- How far each session has been written into memos: the next turn position not yet covered.
create table memo_progress (
    session_id  uuid primary key references sessions (id) on delete cascade,
    next_seq    integer not null
);
