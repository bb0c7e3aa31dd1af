-- Memoir on Citus: the distribution step (docs/scaling.md). Run on the coordinator, as a superuser, in Memoir's
-- database, after Flyway has migrated it, with the schema Memoir's tables are in first on the search_path:
--
--   psql -v ON_ERROR_STOP=1 -d memoir -f scripts/citus-distribute.sql
--
-- Flyway owns every table; this step only tells Citus where each one lives. It is safe to run again, and must be
-- run again after a migration that creates a table (docs/scaling.md, "Migrations on a distributed schema"):
--   - directory tables (tenants, api_keys: a key is found by its hash before its tenant is known) become reference
--     tables, a copy on every node;
--   - the service's own tables (flyway_schema_history, scheduled_tasks, failed_jobs, job_runs) stay on the
--     coordinator, as plain tables: migrations and the job queue, whose jobs may be no tenant's;
--   - every other table is a tenant's table (ShardReadySchemaTest holds the schema to that) and is distributed by
--     tenant_id, all co-located with sessions, so a tenant's rows of every table are on one node and its foreign keys
--     stay on that node. memory_records and memory_passages stay hash-partitioned by user inside: each shard of the
--     parent is itself partitioned, and each partition's shard has its own HNSW and GIN indexes.
--
-- Triggers: V38's and V39's fill rows written by instances from before V36/V39 during a rolling upgrade; a distributed
-- database is never written by those, so they are dropped here. memory_records' four row triggers (time span from
-- the memory's turns, owner kept, what a deleted memory superseded reinstated) stay: Citus creates triggers on
-- distributed tables only with citus.enable_unsafe_triggers, set below for the database, and runs them on the shard,
-- where they may read co-located shards of the same node only; each of them reads its own tenant's rows (V44), and
-- CitusTest shows each of them at work.

\set ON_ERROR_STOP on
set client_min_messages = warning;
set citus.enable_unsafe_triggers = on;
-- One connection per node: foreign keys to reference tables are made in the same transaction as the shards.
set citus.multi_shard_modify_mode = 'sequential';
-- For this step and for later migrations that create a trigger on a distributed table.
do $$ begin execute format('alter database %I set citus.enable_unsafe_triggers = on', current_database()); end $$;

drop trigger if exists turns_fill_tenant on turns;
drop trigger if exists memo_progress_fill_tenant on memo_progress;
drop trigger if exists topic_extractions_fill_tenant on topic_extractions;
drop trigger if exists topic_candidates_fill_tenant on topic_candidates;
drop trigger if exists reply_traces_fill_tenant on reply_traces;
drop trigger if exists memory_revisions_fill_tenant on memory_revisions;
drop trigger if exists memory_revisions_fill_user on memory_revisions;

do $$
declare
    directory constant text[] := array['tenants', 'api_keys'];
    service constant text[] := array['flyway_schema_history', 'scheduled_tasks', 'failed_jobs', 'job_runs'];
    schema_name constant text := current_schema();
    pending text[];
    t text;
    fk record;
    fks text[][] := '{}';
    i int;
begin
    -- The tables this run makes reference or distributed tables: those that are neither yet. A table a later
    -- migration created with a foreign key to a reference table alone is a Citus local table (on the coordinator,
    -- partmethod 'n', repmodel 's') until this step distributes it.
    select coalesce(array_agg(c.relname::text order by c.relname), '{}') into pending
    from pg_class c
    where c.relnamespace = schema_name::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
      and c.relname <> all (service)
      and not exists (select 1 from pg_dist_partition d
                      where d.logicalrelid = c.oid and (d.partmethod = 'h' or d.repmodel = 't'));
    if cardinality(pending) = 0 then
        return;
    end if;

    -- Their foreign keys are set aside and made again, unchanged, once every table is in place: Citus refuses a
    -- distributed table referencing a plain one, and, given a reference table that plain tables reference, it first
    -- converts them, which fails for a partitioned table with check constraints (memory_records) in Citus 13.2.
    for fk in select f.conrelid::regclass::text as tbl, f.conname, pg_get_constraintdef(f.oid) as def
              from pg_constraint f join pg_class c on c.oid = f.conrelid
              where f.contype = 'f' and f.conparentid = 0 and c.relnamespace = schema_name::regnamespace
                and (c.relname = any (pending) or f.confrelid in (
                    select p.oid from pg_class p where p.relnamespace = schema_name::regnamespace
                      and p.relname = any (pending)))
              order by 1, 2 loop
        fks := fks || array[[fk.tbl, fk.conname, fk.def]];
        execute format('alter table %s drop constraint %I', fk.tbl, fk.conname);
    end loop;

    -- Directory tables: a copy on every node.
    foreach t in array pending loop
        if t = any (directory) then
            raise notice 'reference table %', t;
            perform create_reference_table(format('%I.%I', schema_name, t));
        end if;
    end loop;
    -- Tenant tables, by tenant_id, co-located with sessions.
    if 'sessions' = any (pending) then
        raise notice 'distributed table sessions';
        perform create_distributed_table(format('%I.sessions', schema_name), 'tenant_id');
    end if;
    foreach t in array pending loop
        if t <> all (directory) and t <> 'sessions' then
            raise notice 'distributed table %', t;
            perform create_distributed_table(format('%I.%I', schema_name, t), 'tenant_id',
                    colocate_with => format('%I.sessions', schema_name));
        end if;
    end loop;

    for i in 1 .. coalesce(array_length(fks, 1), 0) loop
        execute format('alter table %s add constraint %I %s', fks[i][1], fks[i][2], fks[i][3]);
    end loop;
end
$$;
