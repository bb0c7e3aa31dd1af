package dev.memoir.archive.user;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import dev.memoir.common.audit.Audited;
import dev.memoir.common.web.NotFoundException;
import dev.memoir.common.web.Observed;
import dev.memoir.feedback.FeedbackArchive;
import dev.memoir.memory.MemoryArchive;
import dev.memoir.session.SessionArchive;
import dev.memoir.tenant.TenantId;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes everything Memoir holds for a user as an archive (see {@link ArchiveFormat}), streamed row by row from one
 * read-only, repeatable-read transaction: a consistent picture, never held in memory whole.
 */
@Service
public class UserExporter {

    private final SessionArchive sessions;
    private final MemoryArchive memories;
    private final FeedbackArchive feedback;
    private final JsonMapper json;
    private final TransactionTemplate snapshot;
    private final Observed observations;
    private final ApplicationEventPublisher events;

    UserExporter(
            SessionArchive sessions,
            MemoryArchive memories,
            FeedbackArchive feedback,
            JsonMapper json,
            PlatformTransactionManager transactions,
            Observed observations,
            ApplicationEventPublisher events) {
        this.observations = observations;
        this.events = events;
        this.sessions = sessions;
        this.memories = memories;
        this.feedback = feedback;
        this.json = json;
        this.snapshot = new TransactionTemplate(transactions);
        this.snapshot.setReadOnly(true);
        this.snapshot.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
    }

    /** 404 when the user has neither a session nor a memory: there is nothing to export. */
    public void requireUser(TenantId tenant, String userId) {
        Boolean exists = snapshot.execute(
                status -> sessions.hasSessions(tenant, userId) || memories.hasMemories(tenant, userId));
        if (!Boolean.TRUE.equals(exists)) {
            throw new NotFoundException("User", userId);
        }
    }

    /** One {@code memoir.export} observation, as an import is one {@code memoir.import}: no user, no content. */
    public void export(TenantId tenant, String userId, OutputStream target) {
        observations.exporting("user-archive", () -> {
            // Recorded however it ends: an export cut off half way (the client went away) still gave part of the
            // archive away.
            Map<String, Object> details = new LinkedHashMap<>();
            try {
                details.putAll(writeArchive(tenant, userId, target));
                details.put("complete", true);
            } catch (RuntimeException e) {
                details.put("complete", false);
                throw e;
            } finally {
                events.publishEvent(Audited.of(tenant.value(), "user.exported", userId, List.of(), details));
            }
        });
    }

    private Map<String, Long> writeArchive(TenantId tenant, String userId, OutputStream target) {
        OutputStream out = new BufferedOutputStream(target, 1 << 16);
        Map<String, Long> written = snapshot.execute(status -> {
            Map<String, Object> header = new LinkedHashMap<>();
            header.put("type", ArchiveFormat.HEADER);
            header.put("version", ArchiveFormat.VERSION);
            header.put("exportedAt", Instant.now().toString());
            header.put("userId", userId);
            header.put("embeddingModel", memories.embeddingModel());
            write(out, json.valueToTree(header));
            Map<String, Long> counts = new LinkedHashMap<>();
            counts.put("session", lines(out, "session", sessions.sessions(tenant, userId)));
            counts.put("turn", lines(out, "turn", sessions.turns(tenant, userId)));
            counts.put("memory", lines(out, "memory", memories.memories(tenant, userId)));
            counts.put("revision", lines(out, "revision", memories.revisions(tenant, userId)));
            counts.put("passage", lines(out, "passage", memories.passages(tenant, userId)));
            counts.put("episode", lines(out, "episode", feedback.episodes(tenant, userId)));
            counts.put("feedback", lines(out, "feedback", feedback.feedback(tenant, userId)));
            ObjectNode end = json.createObjectNode();
            end.put("type", ArchiveFormat.END);
            end.set("counts", json.valueToTree(counts));
            write(out, end);
            return counts;
        });
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return written;
    }

    private long lines(OutputStream out, String type, Stream<?> records) {
        try (records) {
            return records.mapToLong(record -> {
                        ObjectNode line = json.createObjectNode();
                        line.put("type", type);
                        line.setAll((ObjectNode) json.valueToTree(record));
                        write(out, line);
                        return 1;
                    })
                    .sum();
        }
    }

    private void write(OutputStream out, ObjectNode line) {
        try {
            out.write(json.writeValueAsBytes(line));
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
