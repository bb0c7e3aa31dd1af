-- Each tenant's key for the tokens that stand for masked secrets (docs/trust.md): "[payment-card #5c1e07aa]" is an
-- HMAC of the card under the tenant's key, the same for the same card within the tenant and unrelated across
-- tenants. Made at a tenant's first masked secret. A tenant's table (ShardReadySchemaTest).
create table redaction_keys (
    tenant_id  uuid        not null primary key,
    hmac_key   bytea       not null,
    created_at timestamptz not null default now()
);
do $$
begin
    if exists (select 1 from pg_extension where extname = 'citus') then
        if (select count(*) from pg_dist_partition where logicalrelid = 'sessions'::regclass) > 0 then
            perform create_distributed_table('redaction_keys', 'tenant_id', colocate_with => 'sessions');
        end if;
    end if;
end
$$;
