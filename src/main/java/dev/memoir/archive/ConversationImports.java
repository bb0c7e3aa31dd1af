package dev.memoir.archive;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.tenant.TenantId;

/**
 * {@code conversation_imports}: which part of which conversation of an export each imported session holds, the key
 * that makes an import idempotent. A row goes with its session (deleted with it, or with its user).
 */
@Component
class ConversationImports {

    /** The part of a conversation stored last: its messages up to {@code to}, ending with {@code lastMessageId}. */
    record Part(int to, String lastMessageId) {}

    private final JdbcClient jdbc;

    ConversationImports(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The last part stored of each conversation of this source the user has imported, by conversation id. */
    @Transactional(readOnly = true)
    Map<String, Part> latest(TenantId tenant, String userId, ExportSource source) {
        Map<String, Part> parts = new HashMap<>();
        jdbc.sql("""
                select distinct on (conversation_id) conversation_id, to_message, last_message_id
                from conversation_imports where tenant_id = ? and user_id = ? and source = ?
                order by conversation_id, to_message desc""").params(tenant.value(), userId, source.wireName()).query(rs -> {
            parts.put(rs.getString(1), new Part(rs.getInt(2), rs.getString(3)));
        });
        return parts;
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
