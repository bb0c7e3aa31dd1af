-- Background jobs take turns between tenants: a job is queued behind the jobs its own tenant has waiting, which
-- are counted through this index. Jobs of no tenant (the service's own upkeep) have none.
alter table job_runs add column tenant_id uuid;

create index job_runs_waiting_of_tenant_idx on job_runs (tenant_id) where finished_at is null;
