-- A client's conversation as it sent it (docs/api.md, "Conversations": Spring AI's chat memory, say). The sessions a
-- conversation went on in carry its id, and the messages of it that are not dialogue (tool calls, tool results,
-- system messages, messages without visible text) are kept beside its turns, in order, so that the conversation reads
-- back whole. Memory is written from the turns alone. Side messages go with their session (a session's deletion, a
-- user's erasure).
alter table sessions add column conversation_id text;
create index sessions_conversation on sessions (tenant_id, conversation_id, created_at)
    where conversation_id is not null;

create table side_messages (
    id           uuid        not null,
    tenant_id    uuid        not null,
    session_id   uuid        not null,
    -- the seq of the session's turn it follows, -1 before the first; ordinal orders those after one turn
    after_seq    int         not null check (after_seq >= -1),
    ordinal      int         not null check (ordinal >= 0),
    role         text        not null check (role in ('system', 'user', 'assistant', 'tool')),
    content      text,
    tool_calls   jsonb,
    tool_call_id text,
    tool_name    text,
    -- the tool calls of the assistant turn at after_seq, which read back as one message with it
    attached     boolean     not null default false,
    created_at   timestamptz not null default now(),
    primary key (id, tenant_id),
    unique (session_id, after_seq, ordinal, tenant_id)
);
do $$
begin
    if exists (select 1 from pg_extension where extname = 'citus') then
        if (select count(*) from pg_dist_partition where logicalrelid = 'sessions'::regclass) > 0 then
            perform create_distributed_table('side_messages', 'tenant_id', colocate_with => 'sessions');
        end if;
    end if;
end
$$;
alter table side_messages add foreign key (session_id, tenant_id) references sessions (id, tenant_id)
    on delete cascade;
