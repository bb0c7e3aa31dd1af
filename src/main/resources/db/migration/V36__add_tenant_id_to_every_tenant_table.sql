-- Every table of a tenant's data names its tenant, so that each row can be keyed, and one day placed, by tenant
-- (V37, docs/scaling.md). Filled from the row each one belongs to.
alter table turns add column tenant_id uuid;
update turns t set tenant_id = s.tenant_id from sessions s where s.id = t.session_id;
alter table turns alter column tenant_id set not null;

alter table memo_progress add column tenant_id uuid;
update memo_progress p set tenant_id = s.tenant_id from sessions s where s.id = p.session_id;
alter table memo_progress alter column tenant_id set not null;

alter table topic_extractions add column tenant_id uuid;
update topic_extractions e set tenant_id = s.tenant_id from sessions s where s.id = e.session_id;
alter table topic_extractions alter column tenant_id set not null;

alter table topic_candidates add column tenant_id uuid;
update topic_candidates c set tenant_id = s.tenant_id from sessions s where s.id = c.session_id;
alter table topic_candidates alter column tenant_id set not null;

alter table reply_traces add column tenant_id uuid;
update reply_traces r set tenant_id = t.tenant_id from turns t where t.id = r.turn_id;
alter table reply_traces alter column tenant_id set not null;

-- A revision goes with its memory (trigger since V27); one left without its memory is deleted here.
alter table memory_revisions add column tenant_id uuid;
update memory_revisions r set tenant_id = m.tenant_id from memory_records m where m.id = r.memory_id;
delete from memory_revisions where tenant_id is null;
alter table memory_revisions alter column tenant_id set not null;
