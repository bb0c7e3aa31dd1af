package dev.memoir.memory.store;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.persistence.EntityManager;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.memoir.memory.api.MemoryOrigin;
import dev.memoir.memory.api.Trust;
import dev.memoir.memory.api.TurnOrigin;

/**
 * What the turns a memory is made from are worth ({@link MemoryOrigin#ofTurn}): by who said them and how they reached
 * Memoir. One query per batch, in the caller's transaction.
 */
@Component
public class TurnTrust {

    private final JdbcClient jdbc;
    private final EntityManager entities;

    TurnTrust(JdbcClient jdbc, EntityManager entities) {
        this.jdbc = jdbc;
        this.entities = entities;
    }

    // The turns a memory is made from may have been stored in this very transaction (an instruction found as the
    // turns are recorded) and not yet written: Hibernate flushes before its own queries only when they touch a table
    // with pending writes, and never before a JDBC one.
    private void flushPending() {
        if (TransactionSynchronizationManager.isActualTransactionActive() && entities.isJoinedToTransaction()) {
            entities.flush();
        }
    }

    Map<UUID, Trust> of(UUID tenant, Collection<UUID> turnIds) {
        Map<UUID, Trust> trust = new HashMap<>();
        if (turnIds.isEmpty()) {
            return trust;
        }
        flushPending();
        jdbc.sql("select id, role, origin from turns where tenant_id = :tenant and id in (:ids)")
                .param("tenant", tenant)
                .param("ids", List.copyOf(turnIds))
                .query((rs, row) -> trust.put(
                        rs.getObject("id", UUID.class), trustOf(rs.getString("role"), rs.getString("origin"))))
                .list();
        return trust;
    }

    /**
     * The least trusted of a session's turns: what a job's rewrite made from the session (a fold, a topic update) is
     * trusted no more than; null when the session has none.
     */
    public Trust lowestOfSession(UUID tenant, UUID sessionId) {
        return jdbc
                .sql("select distinct role, origin from turns where tenant_id = :tenant and session_id = :session")
                .param("tenant", tenant)
                .param("session", sessionId)
                .query((rs, row) -> trustOf(rs.getString("role"), rs.getString("origin")))
                .list()
                .stream()
                .reduce(Trust::atMost)
                .orElse(null);
    }

    /** The least trusted of the given turns; null when none of them is stored. */
    public Trust lowestOf(UUID tenant, List<UUID> turnIds) {
        return lowest(of(tenant, turnIds), turnIds);
    }

    private static Trust trustOf(String role, String origin) {
        return MemoryOrigin.ofTurn("USER".equals(role), TurnOrigin.fromWireName(origin))
                .trust();
    }

    /** The least trusted of the turns; null when none of them is stored (erased since). */
    static Trust lowest(Map<UUID, Trust> trust, List<UUID> turnIds) {
        return turnIds.stream()
                .map(trust::get)
                .filter(t -> t != null)
                .reduce(Trust::atMost)
                .orElse(null);
    }
}
