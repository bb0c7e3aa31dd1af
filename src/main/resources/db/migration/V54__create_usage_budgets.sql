-- Budgets (docs/running.md, "Budgets"): a tenant's, set by the operator (user_id ''), and a user's, set by the
-- tenant. usage_budget_spend is the count every instance adds each chat-model request to, one row per budget and
-- period (a day or a month, in UTC); warned and exhausted say whether the webhook event was told this period.
create table usage_budgets (
    tenant_id   uuid           not null,
    user_id     text           not null,
    period      text           not null check (period in ('day', 'month')),
    max_tokens  bigint         check (max_tokens > 0),
    max_cost    numeric(20, 6) check (max_cost > 0),
    warn_at     real           not null check (warn_at > 0 and warn_at <= 1),
    policy      text           not null check (policy in ('defer', 'reply-only', 'refuse')),
    updated_at  timestamptz    not null,
    primary key (tenant_id, user_id),
    check (max_tokens is not null or max_cost is not null)
);

create table usage_budget_spend (
    tenant_id    uuid           not null,
    user_id      text           not null,
    period       text           not null,
    period_start timestamptz    not null,
    tokens       bigint         not null,
    cost         numeric(24, 9) not null,
    warned       boolean        not null default false,
    exhausted    boolean        not null default false,
    primary key (tenant_id, user_id, period, period_start)
);

-- What each request admitted under a budget that could stop it may still add to the count, until it is counted (or
-- its instance died and the hold expired): so that instances admitting requests at once see each other's.
create table usage_budget_holds (
    tenant_id    uuid           not null,
    id           uuid           not null,
    user_id      text           not null,
    period       text           not null,
    period_start timestamptz    not null,
    tokens       bigint         not null,
    cost         numeric(24, 9) not null,
    expires_at   timestamptz    not null,
    primary key (tenant_id, id, user_id)
);

-- A job held back by its tenant's budget (shown as deferred) until this time, when it looks again.
alter table job_runs add column held_until timestamptz;

do $$
begin
    if exists (select 1 from pg_extension where extname = 'citus') then
        if (select count(*) from pg_dist_partition where logicalrelid = 'sessions'::regclass) > 0 then
            perform create_distributed_table('usage_budgets', 'tenant_id', colocate_with => 'sessions');
            perform create_distributed_table('usage_budget_spend', 'tenant_id', colocate_with => 'sessions');
            perform create_distributed_table('usage_budget_holds', 'tenant_id', colocate_with => 'sessions');
        end if;
    end if;
end
$$;
