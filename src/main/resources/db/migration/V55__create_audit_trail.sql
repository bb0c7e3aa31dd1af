-- The audit trail (docs/trust.md, "Audit trail"): what was done to a tenant's memory and what each reply and context
-- request was shown, by whom and when, never what the memory said. A row is written in the transaction of the change
-- with seq, prev_hash and hash null; the sealer chains the committed rows in the order it finds them:
-- hash = sha256(prev_hash || seq || content_hash), so an edited or removed sealed row breaks the chain. A user is
-- named by user_hash, an HMAC under the tenant's audit_chains.user_key, so the rows outlive the user's erasure
-- without the user id.
create table audit_entries (
    tenant_id    uuid        not null,
    id           uuid        not null,
    recorded_at  timestamptz not null,
    actor        text        not null,
    action       text        not null,
    user_hash    text,
    subjects     uuid[]      not null,
    details      text        not null,
    content_hash bytea       not null,
    seq          bigint,
    prev_hash    bytea,
    hash         bytea,
    primary key (tenant_id, id)
);

create unique index audit_entries_seq_idx on audit_entries (tenant_id, seq);
create index audit_entries_unsealed_idx on audit_entries (tenant_id, recorded_at) where seq is null;
create index audit_entries_time_idx on audit_entries (tenant_id, recorded_at, id);
create index audit_entries_user_idx on audit_entries (tenant_id, user_hash, recorded_at, id);

-- One row per tenant: the chain's last sealed entry, the key that hashes user ids, and where the retention purge
-- cut the chain's front (the first kept entry's prev_hash must equal pruned_hash).
create table audit_chains (
    tenant_id      uuid   not null primary key,
    user_key       bytea  not null,
    last_seq       bigint not null default 0,
    last_hash      bytea,
    pruned_through bigint not null default 0,
    pruned_hash    bytea
);

do $$
begin
    if exists (select 1 from pg_extension where extname = 'citus') then
        if (select count(*) from pg_dist_partition where logicalrelid = 'sessions'::regclass) > 0 then
            perform create_distributed_table('audit_entries', 'tenant_id', colocate_with => 'sessions');
            perform create_distributed_table('audit_chains', 'tenant_id', colocate_with => 'sessions');
        end if;
    end if;
end
$$;
