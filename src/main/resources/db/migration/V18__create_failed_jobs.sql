-- Background jobs that failed on every retry. db-scheduler removes such an execution; its last failure is kept
-- here so that an operator sees it (API and metrics) and can run it again, instead of it vanishing into a log.
create table failed_jobs (
    task_name     text not null,
    task_instance text not null,
    failures      integer not null,
    last_error    text not null,
    failed_at     timestamptz not null,
    primary key (task_name, task_instance)
);
