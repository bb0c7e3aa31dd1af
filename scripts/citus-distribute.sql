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
-- the memory's turns, owner kept, what a deleted memory superseded reinstated) stay: Citus runs them on the shard with
-- citus.enable_unsafe_triggers, which scripts/citus.sh sets on every node's database (CitusTest shows each of them).

\set ON_ERROR_STOP on
set client_min_messages = warning;
set citus.enable_unsafe_triggers = on;

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
    ready text[];
    t text;
    progressed boolean;
begin
    -- Reference tables first: every distributed table references tenants.
    foreach t in array directory loop
        if to_regclass(format('%I.%I', schema_name, t)) is not null and not exists (
                select 1 from pg_dist_partition where logicalrelid = format('%I.%I', schema_name, t)::regclass) then
            raise notice 'reference table %', t;
            perform create_reference_table(format('%I.%I', schema_name, t));
        end if;
    end loop;

    select coalesce(array_agg(c.relname::text order by c.relname), '{}') into pending
    from pg_class c
    where c.relnamespace = schema_name::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
      and c.relname <> all (directory) and c.relname <> all (service)
      and not exists (select 1 from pg_dist_partition d where d.logicalrelid = c.oid);

    -- Distribute a table once every tenant's table it references is distributed (a foreign key from a distributed
    -- table may only reach a co-located distributed table or a reference table). sessions anchors the co-location.
    loop
        exit when cardinality(pending) = 0;
        progressed := false;
        select coalesce(array_agg(p order by p = 'sessions' desc, p), '{}') into ready
        from unnest(pending) p
        where not exists (
            select 1 from pg_constraint f
            where f.contype = 'f' and f.conrelid = format('%I.%I', schema_name, p)::regclass
              and f.confrelid <> f.conrelid
              and not exists (select 1 from pg_dist_partition d where d.logicalrelid = f.confrelid));
        foreach t in array ready loop
            if t <> 'sessions' and not exists (
                    select 1 from pg_dist_partition where logicalrelid = format('%I.sessions', schema_name)::regclass) then
                continue;
            end if;
            raise notice 'distributed table %', t;
            if t = 'sessions' then
                perform create_distributed_table(format('%I.%I', schema_name, t), 'tenant_id');
            else
                perform create_distributed_table(format('%I.%I', schema_name, t), 'tenant_id',
                        colocate_with => format('%I.sessions', schema_name));
            end if;
            pending := array_remove(pending, t);
            progressed := true;
        end loop;
        if not progressed then
            raise exception 'cannot distribute %: each references a table that is neither distributed nor a reference table',
                pending;
        end if;
    end loop;
end
$$;
