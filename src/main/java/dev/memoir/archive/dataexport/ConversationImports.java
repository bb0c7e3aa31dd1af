package dev.memoir.archive.dataexport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.archive.api.ExportSource;
import dev.memoir.tenant.TenantId;

/**
 * {@code conversation_imports}: which part of which conversation of an export each imported session holds, the key
 * that makes an import idempotent. A row goes with its session (deleted with it, or with its user).
 */
@Component
class ConversationImports {

    /** A part of a conversation that a session holds: its messages {@code from} to {@code to}, ending with one. */
    record Part(int from, int to, String lastMessageId) {}

    private final JdbcClient jdbc;

    ConversationImports(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The stored parts of each conversation of this source the user has imported, by conversation id. */
    @Transactional(readOnly = true)
    Map<String, List<Part>> stored(TenantId tenant, String userId, ExportSource source) {
        Map<String, List<Part>> parts = new HashMap<>();
        jdbc.sql("""
                select conversation_id, from_message, to_message, last_message_id
                from conversation_imports where tenant_id = ? and user_id = ? and source = ?
                order by conversation_id, from_message""").params(tenant.value(), userId, source.wireName()).query(rs -> {
            parts.computeIfAbsent(rs.getString(1), id -> new ArrayList<>())
                    .add(new Part(rs.getInt(2), rs.getInt(3), rs.getString(4)));
        });
        return parts;
    }

    /** The stored parts of one conversation, in order. */
    @Transactional(readOnly = true)
    List<Part> storedOf(TenantId tenant, String userId, ExportSource source, String conversationId) {
        return jdbc.sql("""
                select from_message, to_message, last_message_id from conversation_imports
                where tenant_id = ? and user_id = ? and source = ? and conversation_id = ?
                order by from_message""")
                .params(tenant.value(), userId, source.wireName(), conversationId)
                .query((rs, n) -> new Part(rs.getInt(1), rs.getInt(2), rs.getString(3)))
                .list();
    }

    /**
     * The stored parts of one conversation, locked until the caller's transaction ends: a session's deletion, which
     * deletes its part, waits, so what is stored next is planned from parts that are still there.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    List<Part> lockedParts(TenantId tenant, String userId, ExportSource source, String conversationId) {
        return jdbc.sql("""
                select from_message, to_message, last_message_id from conversation_imports
                where tenant_id = ? and user_id = ? and source = ? and conversation_id = ?
                order by from_message
                for update""")
                .params(tenant.value(), userId, source.wireName(), conversationId)
                .query((rs, n) -> new Part(rs.getInt(1), rs.getInt(2), rs.getString(3)))
                .list();
    }

    /** Records the part a new session holds, in the transaction that stores it. */
    @Transactional(propagation = Propagation.MANDATORY)
    void record(
            TenantId tenant,
            UUID sessionId,
            String userId,
            ExportSource source,
            String conversationId,
            int from,
            int to,
            String lastMessageId) {
        jdbc.sql("""
                insert into conversation_imports (session_id, tenant_id, user_id, source, conversation_id,
                                                  from_message, to_message, last_message_id)
                values (?, ?, ?, ?, ?, ?, ?, ?)""")
                .params(sessionId, tenant.value(), userId, source.wireName(), conversationId, from, to, lastMessageId)
                .update();
    }
}
