-- Memory records are split into 16 hash partitions by (tenant_id, user_id), each with its own indexes, so a
-- search reads only the partition that holds its user. Why: in one HNSW graph over every user, a big user's
-- filtered search converged among other users' rows (scale benchmark: recall@10 0.906 against exact search for a
-- 100k-memory user among 1M memories, dense p95 134-188 ms). In its own partition that user's rows are most of the
-- graph (recall 0.964, dense p95 25-30 ms), and the full-text index's tenant key no longer spans every user.
-- The partition count is fixed here: changing it means rewriting the table again.
--
-- A primary key or unique constraint of a partitioned table must contain the partition key, so the key is
-- (id, tenant_id, user_id) and the dedup key is unique per user (it hashes tenant and user in anyway). Nothing can
-- reference memory_records (id) alone any more: revisions follow their memory's deletion by a trigger instead.
--
-- This rewrites the table and rebuilds its indexes under an exclusive lock: 11 min 14 s for a million memories
-- on 2 cores with the test suite running beside it (docs/running.md).

alter table memory_records rename to memory_records_unpartitioned;

create table memory_records (
    like memory_records_unpartitioned including defaults including generated including constraints including storage
) partition by hash (tenant_id, user_id);

do $$
begin
    for remainder in 0..15 loop
        execute format('create table memory_records_p%s partition of memory_records for values with (modulus 16, remainder %s)',
                       lpad(remainder::text, 2, '0'), remainder);
    end loop;
end;
$$;

insert into memory_records (id, tenant_id, user_id, kind, text, embedding, session_id, turn_ids, dedup_key,
                            created_at, updated_at, topic, version, speaker, occurred_from, occurred_to, embedding_model)
select id, tenant_id, user_id, kind, text, embedding, session_id, turn_ids, dedup_key,
       created_at, updated_at, topic, version, speaker, occurred_from, occurred_to, embedding_model
from memory_records_unpartitioned;

alter table memory_revisions drop constraint memory_revisions_memory_id_fkey;
drop table memory_records_unpartitioned;

alter table memory_records add constraint memory_records_pkey primary key (id, tenant_id, user_id);
alter table memory_records add constraint memory_records_dedup_key_key unique (dedup_key, tenant_id, user_id);
alter table memory_records add constraint memory_records_tenant_id_fkey
    foreign key (tenant_id) references tenants (id) on delete cascade;

-- An HNSW graph built within maintenance_work_mem is built several times faster than one that spills; PostgreSQL's
-- default (64MB) holds a partition of about 40,000 memories, this one about 300,000.
set local maintenance_work_mem = '512MB';
create index memory_records_embedding_idx on memory_records using hnsw (embedding vector_cosine_ops);
create index memory_records_user_kind_idx on memory_records (tenant_id, user_id, kind, created_at desc);
create index memory_records_user_newest_idx on memory_records (tenant_id, user_id, created_at desc, id desc);
create index memory_records_user_search_idx on memory_records using gin (tenant_id, user_id, search_vector);
create index memory_records_user_time_idx on memory_records (tenant_id, user_id, occurred_from);

create trigger memory_records_time_span before insert or update of turn_ids, occurred_from, occurred_to
    on memory_records for each row execute function memory_records_time_span();

create function memory_records_delete_revisions() returns trigger language plpgsql as $$
begin
    delete from memory_revisions where memory_id = old.id;
    return null;
end;
$$;

create trigger memory_records_delete_revisions after delete on memory_records
    for each row execute function memory_records_delete_revisions();

-- Autovacuum analyses the partitions but never the partitioned table itself.
analyze memory_records;
