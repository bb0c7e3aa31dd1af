package dev.memoir.audit;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.archive.api.ImportFinished;
import dev.memoir.common.audit.AuditActor;
import dev.memoir.common.audit.Audited;
import dev.memoir.common.jdbc.SqlTimes;
import dev.memoir.memory.api.MemoryEvent;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.session.api.TurnView;
import dev.memoir.session.api.TurnsRecorded;

import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes the audit entries, each in the transaction of what it records: {@link Audited} from any module, and the
 * memory, turn and import events other modules already publish. A history memory is its turn, recorded once per
 * request that stores turns ({@code turns.recorded}), not once per turn. Nothing of a memory's text is written.
 */
@Component
class AuditLog {

    static final JsonMapper DETAILS = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

    private final JdbcClient jdbc;
    private final AuditKeys keys;

    AuditLog(JdbcClient jdbc, AuditKeys keys) {
        this.jdbc = jdbc;
        this.keys = keys;
    }

    @EventListener
    @Transactional
    void onAudited(Audited audited) {
        append(audited);
    }

    @EventListener
    @Transactional(propagation = Propagation.MANDATORY)
    void onMemoryEvent(MemoryEvent event) {
        boolean screening = event.type() == MemoryEvent.Type.QUARANTINED || event.type() == MemoryEvent.Type.RELEASED;
        if (event.kind() == MemoryKind.HISTORY && !screening) {
            return;
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("kind", event.kind().wireName());
        if (event.reason() != null) {
            details.put("reason", event.reason());
        }
        if (event.supersededBy() != null) {
            details.put("supersededBy", event.supersededBy().toString());
        }
        String action = switch (event.type()) {
            case CREATED -> "memory.created";
            case UPDATED -> "memory.updated";
            case DELETED -> "memory.deleted";
            case SUPERSEDED -> "memory.superseded";
            case QUARANTINED -> "memory.quarantined";
            case RELEASED -> "memory.released";
        };
        append(Audited.of(event.tenant().value(), action, event.userId(), List.of(event.memoryId()), details));
    }

    @EventListener
    @Transactional(propagation = Propagation.MANDATORY)
    void onTurnsRecorded(TurnsRecorded recorded) {
        append(Audited.of(
                recorded.tenant().value(),
                "turns.recorded",
                recorded.userId(),
                recorded.turns().stream().map(TurnView::id).toList(),
                Map.of(
                        "sessionId",
                        recorded.sessionId().toString(),
                        "turns",
                        recorded.turns().size())));
    }

    @EventListener
    @Transactional
    void onImportFinished(ImportFinished finished) {
        append(Audited.of(
                finished.tenant().value(),
                "import.finished",
                finished.userId(),
                List.of(),
                Map.of("source", finished.what(), "sessions", finished.sessions())));
    }

    private void append(Audited audited) {
        Instant at = AuditHashes.stored(Instant.now());
        String actor = AuditActor.current();
        String userHash = keys.userHash(audited.tenant(), audited.userId());
        String details = DETAILS.writeValueAsString(new TreeMap<>(audited.details()));
        byte[] content = AuditHashes.content(
                audited.tenant(), audited.id(), at, actor, audited.action(), userHash, audited.subjects(), details);
        // The driver binds a UUID[] as an array of its "uuid" type (createArrayOf), as the column takes it.
        jdbc.sql("""
                insert into audit_entries (tenant_id, id, recorded_at, actor, action, user_hash, subjects,
                                           details, content_hash)
                values (?, ?, ?, ?, ?, ?, ?, ?, ?)""")
                .params(
                        audited.tenant(),
                        audited.id(),
                        SqlTimes.timestamptz(at),
                        actor,
                        audited.action(),
                        userHash,
                        audited.subjects().toArray(UUID[]::new),
                        details,
                        content)
                .update();
    }
}
