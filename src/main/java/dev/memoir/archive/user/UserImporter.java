package dev.memoir.archive.user;

import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.memoir.archive.api.ImportFinished;
import dev.memoir.common.web.ConflictException;
import dev.memoir.common.web.Observed;
import dev.memoir.feedback.FeedbackArchive;
import dev.memoir.memory.MemoryArchive;
import dev.memoir.session.SessionArchive;
import dev.memoir.tenant.TenantId;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Restores an archive (see {@link ArchiveFormat}) as one user of one tenant, in one transaction: read line by line
 * ({@link ArchiveReader}) and written in batches as it is read ({@link ArchiveBatch}), so that an archive of any size
 * passes through a bounded heap, and refused whole, with the line at fault, if any of it cannot be stored. It is held
 * to what the API would accept record by record: strict UTF-8, texts within their limits, instants PostgreSQL stores,
 * every reference to a record of the same archive, supersession by the API's rules. References to a record of an
 * earlier type are checked against what the import has stored so far, before each batch is written; supersession,
 * whose memories may come in any order, once every memory is stored: both in the database, so that no table of the
 * ids seen grows with the archive. Every id is new ({@link IdRemap}); vectors of this deployment's embedding model
 * are reused, the others recomputed. The user must have no data yet, and is held against an erasure or another
 * import of it meanwhile.
 */
@Service
public class UserImporter {

    /** What an import stored. */
    public record Imported(String userId, Map<String, Long> counts, int reembedded) {}

    private final SessionArchive sessions;
    private final MemoryArchive memories;
    private final FeedbackArchive feedback;
    private final JsonMapper json;
    private final TransactionTemplate transaction;
    private final Observed observations;
    private final ApplicationEventPublisher events;

    UserImporter(
            SessionArchive sessions,
            MemoryArchive memories,
            FeedbackArchive feedback,
            JsonMapper json,
            PlatformTransactionManager transactions,
            Observed observations,
            ApplicationEventPublisher events) {
        this.events = events;
        this.observations = observations;
        this.sessions = sessions;
        this.memories = memories;
        this.feedback = feedback;
        this.json = json;
        this.transaction = new TransactionTemplate(transactions);
    }

    /** One {@code memoir.import} of one transaction: the archive is stored whole or not at all. */
    public Imported restore(TenantId tenant, String userId, InputStream archive) {
        ArchiveReader reader = new ArchiveReader(archive, json);
        return observations.importing(
                "user-archive", null, () -> transaction.execute(status -> importArchive(tenant, userId, reader)));
    }

    private Imported importArchive(TenantId tenant, String userId, ArchiveReader reader) {
        memories.holdUser(tenant, userId);
        if (sessions.hasSessions(tenant, userId) || memories.hasMemories(tenant, userId)) {
            throw new ConflictException(
                    "user-not-empty",
                    "User " + userId + " already has sessions or "
                            + "memories: an archive is imported into a user without any (erase the user first, or "
                            + "import under another user id)");
        }
        reader.readHeader();
        IdRemap ids = new IdRemap();
        ArchiveBatch batch = new ArchiveBatch(sessions, memories, feedback, tenant, userId, ids);
        Map<String, Long> counts = new LinkedHashMap<>();
        ArchiveFormat.ORDER.forEach(type -> counts.put(type, 0L));
        JsonNode end = readRecords(reader, batch, counts);
        memories.supersessionProblem(tenant, userId).ifPresent(problem -> {
            throw new InvalidArchiveException("Memory " + ids.original(problem.memoryId()) + " of the archive: "
                    + "supersededBy " + ids.original(problem.supersededBy()) + " " + problem.problem());
        });
        for (String type : ArchiveFormat.ORDER) {
            long expected = end.path("counts").path(type).asLong(0);
            if (expected != counts.get(type)) {
                throw new InvalidArchiveException("The end line counts " + expected + " " + type
                        + " records, the archive holds " + counts.get(type));
            }
        }
        events.publishEvent(new ImportFinished(tenant, userId, "user-archive", counts.get("session")));
        return new Imported(userId, counts, batch.reembedded());
    }

    /**
     * Reads the records after the header into batches, each type in its turn and counted, up to the end line, which
     * it returns.
     */
    private static JsonNode readRecords(ArchiveReader reader, ArchiveBatch batch, Map<String, Long> counts) {
        int typeIndex = -1;
        JsonNode end = null;
        for (ObjectNode node = reader.next(); node != null; node = reader.next()) {
            String type = node.path("type").asString("");
            if (end != null) {
                throw reader.invalid("a line after the end line");
            }
            if (type.equals(ArchiveFormat.END)) {
                batch.flush(reader.line());
                end = node;
                continue;
            }
            int index = ArchiveFormat.ORDER.indexOf(type);
            if (index < 0) {
                throw reader.invalid("unknown type '" + type + "'; an archive holds " + ArchiveFormat.ORDER);
            }
            if (index < typeIndex) {
                throw reader.invalid("a " + type + " after the " + ArchiveFormat.ORDER.get(typeIndex)
                        + " records; an archive holds them in the order " + ArchiveFormat.ORDER);
            }
            if (index != typeIndex || batch.isFull()) {
                batch.flush(reader.line());
            }
            typeIndex = index;
            node.remove("type");
            batch.add(reader.line(), reader.record(type, node));
            counts.merge(type, 1L, Long::sum);
        }
        if (end == null) {
            throw reader.invalid("the archive ends without its end line: it was cut short");
        }
        return end;
    }
}
