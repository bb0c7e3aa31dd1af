-- A tenant's own redaction policy per class (docs/trust.md): what it chose over the deployment's
-- memoir.redaction.* settings. A class without a row follows the deployment.
create table redaction_policies (
    tenant_id  uuid        not null,
    class      text        not null check (class in ('api-key', 'private-key', 'payment-card', 'iban', 'email', 'phone')),
    action     text        not null check (action in ('off', 'mask', 'refuse')),
    updated_at timestamptz not null,
    primary key (tenant_id, class)
);

do $$
begin
    if exists (select 1 from pg_extension where extname = 'citus') then
        if (select count(*) from pg_dist_partition where logicalrelid = 'sessions'::regclass) > 0 then
            perform create_distributed_table('redaction_policies', 'tenant_id', colocate_with => 'sessions');
        end if;
    end if;
end
$$;
