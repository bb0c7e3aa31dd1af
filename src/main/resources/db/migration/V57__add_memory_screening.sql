-- Poisoning held back (docs/trust.md): a memory whose text reads as instructions to an assistant is flagged (still
-- read) or quarantined (never read into a reply or a search until released), as its tenant's policy says; the signs
-- found are kept beside it. Released: a client or the operator looked and let it be read. Null: nothing found, or the
-- tenant allows such text.
alter table memory_records add column screening text check (screening in ('flagged', 'quarantined', 'released'));
alter table memory_records add column screening_signs text[];

create index memory_records_quarantined_idx on memory_records (tenant_id, user_id, created_at, id)
    where screening = 'quarantined';

-- A tenant's own poisoning policy over the deployment's memoir.quarantine.policy.
create table poisoning_policies (
    tenant_id  uuid        not null primary key,
    policy     text        not null check (policy in ('allow', 'flag', 'quarantine')),
    updated_at timestamptz not null
);

do $$
begin
    if exists (select 1 from pg_extension where extname = 'citus') then
        if (select count(*) from pg_dist_partition where logicalrelid = 'sessions'::regclass) > 0 then
            perform create_distributed_table('poisoning_policies', 'tenant_id', colocate_with => 'sessions');
        end if;
    end if;
end
$$;
