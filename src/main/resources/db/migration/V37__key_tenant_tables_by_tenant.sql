-- Shard-ready: every primary key and unique constraint of a tenant's table includes tenant_id, and every foreign key
-- between them matches tenant_id on both sides, so no reference crosses tenants and a distributed PostgreSQL (Citus,
-- distribution column tenant_id) can keep a tenant's rows and their references on one node (docs/scaling.md).
-- ShardReadySchemaTest keeps it so. Keys put id first: a lookup by id alone still uses the key's index.

-- The foreign keys on the keys about to change go first, and come back below with tenant_id.
alter table turns drop constraint turns_reply_to_fkey, drop constraint turns_session_id_fkey;
alter table memo_progress drop constraint memo_progress_session_id_fkey;
alter table summary_folds drop constraint summary_folds_session_id_fkey;
alter table topic_extractions drop constraint topic_extractions_session_id_fkey;
alter table topic_candidates drop constraint topic_candidates_session_id_fkey;
alter table episodes drop constraint episodes_session_id_fkey;
alter table reply_feedback drop constraint reply_feedback_episode_id_fkey, drop constraint reply_feedback_turn_id_fkey;
alter table reply_traces drop constraint reply_traces_turn_id_fkey;
-- job_runs is the service's own table (a job may belong to no tenant): it no longer references a tenant's table, and
-- a session's rows are deleted with the session by the service.
alter table job_runs drop constraint job_runs_session_id_fkey;

alter table sessions drop constraint sessions_pkey, add primary key (id, tenant_id);
alter table turns drop constraint turns_pkey, add primary key (id, tenant_id);
alter table turns drop constraint turns_session_id_seq_key, add unique (session_id, seq, tenant_id);
alter table memory_revisions drop constraint memory_revisions_pkey, add primary key (id, tenant_id);
alter table memory_revisions drop constraint memory_revisions_memory_id_version_key,
    add unique (memory_id, version, tenant_id);
alter table memo_progress drop constraint memo_progress_pkey, add primary key (session_id, tenant_id);
alter table summary_folds drop constraint summary_folds_pkey, add primary key (session_id, tenant_id);
alter table topic_extractions drop constraint topic_extractions_pkey, add primary key (id, tenant_id);
alter table topic_extractions drop constraint topic_extractions_session_id_speaker_key,
    add unique (session_id, speaker, tenant_id);
alter table topic_candidates drop constraint topic_candidates_pkey, add primary key (id, tenant_id);
alter table topic_candidates drop constraint topic_candidates_session_id_speaker_position_key,
    add unique (session_id, speaker, position, tenant_id);
alter table reranker_feedback drop constraint reranker_feedback_pkey, add primary key (id, tenant_id);
alter table episodes drop constraint episodes_pkey, add primary key (id, tenant_id);
alter table episodes drop constraint episodes_reply_turn_id_key, add unique (reply_turn_id, tenant_id);
alter table reply_feedback drop constraint reply_feedback_pkey, add primary key (id, tenant_id);
alter table reply_traces drop constraint reply_traces_pkey, add primary key (turn_id, tenant_id);

alter table turns
    add foreign key (session_id, tenant_id) references sessions (id, tenant_id) on delete cascade,
    add foreign key (reply_to, tenant_id) references turns (id, tenant_id) on delete cascade;
alter table memo_progress
    add foreign key (session_id, tenant_id) references sessions (id, tenant_id) on delete cascade;
alter table summary_folds
    add foreign key (session_id, tenant_id) references sessions (id, tenant_id) on delete cascade;
alter table topic_extractions
    add foreign key (session_id, tenant_id) references sessions (id, tenant_id) on delete cascade;
alter table topic_candidates
    add foreign key (session_id, tenant_id) references sessions (id, tenant_id) on delete cascade;
alter table episodes
    add foreign key (session_id, tenant_id) references sessions (id, tenant_id) on delete cascade;
alter table reply_feedback
    add foreign key (episode_id, tenant_id) references episodes (id, tenant_id) on delete cascade,
    add foreign key (turn_id, tenant_id) references turns (id, tenant_id) on delete cascade;
alter table reply_traces
    add foreign key (turn_id, tenant_id) references turns (id, tenant_id) on delete cascade;

-- A memory's revisions are found by their memory's key, tenant included.
create or replace function memory_records_delete_revisions() returns trigger language plpgsql as $$
begin
    delete from memory_revisions where memory_id = old.id and tenant_id = old.tenant_id;
    return null;
end;
$$;
