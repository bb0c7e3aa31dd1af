-- The audit trail is read in the order of its chain (seq), by user or by action: an entry written early in a long
-- transaction is sealed after later ones, and a reader paging by time would miss it.
drop index audit_entries_time_idx;
drop index audit_entries_user_idx;
create index audit_entries_user_idx on audit_entries (tenant_id, user_hash, seq);
create index audit_entries_action_idx on audit_entries (tenant_id, action, seq);
