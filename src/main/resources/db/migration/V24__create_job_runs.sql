-- What became of each background job, so that a client can see whether a session's memory has been written:
-- db-scheduler forgets a job once it has run. A job of a session goes with the session.
create table job_runs (
    task_name     text not null,
    task_instance text not null,
    session_id    uuid references sessions (id) on delete cascade,
    queued_at     timestamptz not null,
    finished_at   timestamptz,
    failures      integer not null default 0,
    last_error    text,
    primary key (task_name, task_instance)
);

create index job_runs_session_idx on job_runs (session_id) where session_id is not null;
