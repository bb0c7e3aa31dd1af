-- A delivery's attempt runs in the background (docs/api.md, "Webhooks"): attempt_until is the deadline of the attempt
-- in flight, claimed by the job's run that starts it; attempt_failed says that the last attempt failed and its job has
-- yet to be retried. Several attempts in flight to one endpoint are counted by the endpoint's rows.
alter table webhook_deliveries add column attempt_until timestamptz;
alter table webhook_deliveries add column attempt_failed boolean not null default false;
create index webhook_deliveries_in_flight on webhook_deliveries (tenant_id, endpoint_id, attempt_until)
    where attempt_until is not null;

-- The memory a delivery tells of, so that its text leaves every payload when the memory is deleted, expires or is
-- purged.
alter table webhook_deliveries add column memory_id uuid;
create index webhook_deliveries_memory on webhook_deliveries (tenant_id, memory_id) where memory_id is not null;

-- Delivered rows are purged after memoir.webhooks.keep-delivered.
create index webhook_deliveries_delivered on webhook_deliveries (delivered_at) where delivered_at is not null;
