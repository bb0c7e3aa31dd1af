-- CitusTest's stand-in for a migration written after the database was distributed (docs/scaling.md, "Migrations on
-- a distributed schema"): a column and an index on a distributed, partitioned table, and a new tenant table that
-- references another. It is written as the rule asks and runs on plain PostgreSQL as well.

-- Columns, indexes and constraints of existing tables: as on PostgreSQL; Citus applies them to every shard.
alter table memory_records add column later_note text;
create index memory_records_later_note_idx on memory_records (tenant_id, user_id, later_note);

-- A new tenant's table: created with its tenant's key and its reference to tenants (a reference table) only,
-- distributed co-located with sessions where the database is distributed, and only then given its references to
-- other tenant tables (a foreign key from a plain table to a distributed one is refused).
create table later_notes (
    tenant_id uuid not null references tenants (id) on delete cascade,
    id uuid not null,
    session_id uuid not null,
    note text not null,
    primary key (tenant_id, id)
);

do $$
begin
    if exists (select 1 from pg_extension where extname = 'citus') then
        if (select count(*) from pg_dist_partition where logicalrelid = 'sessions'::regclass) > 0 then
            perform create_distributed_table('later_notes', 'tenant_id', colocate_with => 'sessions');
        end if;
    end if;
end
$$;

alter table later_notes add foreign key (tenant_id, session_id) references sessions (tenant_id, id) on delete cascade;
