package dev.memoir.archive;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.memoir.feedback.FeedbackArchive;
import dev.memoir.feedback.FeedbackArchive.ArchivedEpisode;
import dev.memoir.feedback.FeedbackArchive.ArchivedFeedback;
import dev.memoir.memory.MemoryArchive;
import dev.memoir.memory.MemoryArchive.ArchivedMemory;
import dev.memoir.memory.MemoryArchive.ArchivedPassage;
import dev.memoir.memory.MemoryArchive.ArchivedRevision;
import dev.memoir.session.SessionArchive;
import dev.memoir.session.SessionArchive.ArchivedSession;
import dev.memoir.session.SessionArchive.ArchivedTurn;
import dev.memoir.tenant.TenantId;
import dev.memoir.web.ApiException;
import dev.memoir.web.ConflictException;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Restores an archive (see {@link ArchiveFormat}) as one user of one tenant, in one transaction: read line by line
 * and written in batches as it is read, so that an archive of any size passes through a bounded heap, and refused
 * whole, with the line at fault, if any of it cannot be stored. Every id is new ({@link IdRemap}); vectors of
 * this deployment's embedding model are reused, the others recomputed. The user must have no data yet, and is held
 * against an erasure or another import of it meanwhile.
 */
@Service
class UserImporter {

    /** A line longer than this is refused: a memory's 20,000 characters and its vectors fit many times over. */
    static final int MAX_LINE_BYTES = 8 << 20;
    private static final int BATCH = 500;

    /** What an import stored. */
    record Imported(String userId, Map<String, Long> counts, int reembedded) {
    }

    private final SessionArchive sessions;
    private final MemoryArchive memories;
    private final FeedbackArchive feedback;
    private final JsonMapper json;
    private final TransactionTemplate transaction;
    private final ObservationRegistry observations;

    UserImporter(SessionArchive sessions, MemoryArchive memories, FeedbackArchive feedback, JsonMapper json,
            PlatformTransactionManager transactions, ObservationRegistry observations) {
        this.observations = observations;
        this.sessions = sessions;
        this.memories = memories;
        this.feedback = feedback;
        this.json = json;
        this.transaction = new TransactionTemplate(transactions);
    }

    Imported restore(TenantId tenant, String userId, InputStream archive) {
        InputStream buffered = new BufferedInputStream(archive, 1 << 16);
        return Observation.createNotStarted("memoir.import", observations)
                .lowCardinalityKeyValue("memoir.import.what", "user-archive")
                .observe(() -> transaction.execute(status -> new Run(tenant, userId, buffered).run()));
    }

    /** One import: its position in the archive, the batch being gathered, and what was stored. */
    private final class Run {

        private final TenantId tenant;
        private final String userId;
        private final InputStream in;
        private final IdRemap ids = new IdRemap();
        private final Map<String, Long> counts = new LinkedHashMap<>();
        private final List<Object> batch = new ArrayList<>();
        private String batchType;
        private int typeIndex = -1;
        private long line;
        private int reembedded;

        Run(TenantId tenant, String userId, InputStream in) {
            this.tenant = tenant;
            this.userId = userId;
            this.in = in;
            ArchiveFormat.ORDER.forEach(type -> counts.put(type, 0L));
        }

        Imported run() {
            memories.holdUser(tenant, userId);
            if (sessions.hasSessions(tenant, userId) || memories.hasMemories(tenant, userId)) {
                throw new ConflictException("user-not-empty", "User " + userId + " already has sessions or "
                        + "memories: an archive is imported into a user without any (erase the user first, or "
                        + "import under another user id)");
            }
            header(next());
            JsonNode end = null;
            for (ObjectNode node = next(); node != null; node = next()) {
                String type = node.path("type").asString("");
                if (end != null) {
                    throw invalid("a line after the end line");
                }
                if (type.equals(ArchiveFormat.END)) {
                    flush();
                    end = node;
                    continue;
                }
                int index = ArchiveFormat.ORDER.indexOf(type);
                if (index < 0) {
                    throw invalid("unknown type '" + type + "'; an archive holds " + ArchiveFormat.ORDER);
                }
                if (index < typeIndex) {
                    throw invalid("a " + type + " after the " + ArchiveFormat.ORDER.get(typeIndex)
                            + " records; an archive holds them in the order " + ArchiveFormat.ORDER);
                }
                if (index != typeIndex || batch.size() >= BATCH) {
                    flush();
                }
                typeIndex = index;
                batchType = type;
                node.remove("type");
                batch.add(read(type, node));
                counts.merge(type, 1L, Long::sum);
            }
            if (end == null) {
                throw invalid("the archive ends without its end line: it was cut short");
            }
            for (String type : ArchiveFormat.ORDER) {
                long expected = end.path("counts").path(type).asLong(0);
                if (expected != counts.get(type)) {
                    throw new InvalidArchiveException("The end line counts " + expected + " " + type
                            + " records, the archive holds " + counts.get(type));
                }
            }
            return new Imported(userId, counts, reembedded);
        }

        private void header(ObjectNode header) {
            if (header == null || !ArchiveFormat.HEADER.equals(header.path("type").asString(""))) {
                throw invalid("not a Memoir user archive: the first line must have type "
                        + ArchiveFormat.HEADER);
            }
            if (header.path("version").asInt(-1) != ArchiveFormat.VERSION) {
                throw invalid("archive version " + header.path("version") + " is not one this Memoir reads ("
                        + ArchiveFormat.VERSION + ")");
            }
        }

        private Object read(String type, ObjectNode node) {
            try {
                Object record = switch (type) {
                    case "session" -> remap(json.treeToValue(node, ArchivedSession.class));
                    case "turn" -> remap(json.treeToValue(node, ArchivedTurn.class));
                    case "memory" -> remap(json.treeToValue(node, ArchivedMemory.class));
                    case "revision" -> remap(json.treeToValue(node, ArchivedRevision.class));
                    case "passage" -> remap(json.treeToValue(node, ArchivedPassage.class));
                    case "episode" -> remap(json.treeToValue(node, ArchivedEpisode.class));
                    default -> remap(json.treeToValue(node, ArchivedFeedback.class));
                };
                return record;
            } catch (JacksonException | IllegalArgumentException e) {
                throw invalid("a " + type + " that cannot be read: " + firstLine(e.getMessage()));
            } catch (ApiException e) {
                throw invalid("a " + type + " that cannot be read: " + e.getMessage());
            }
        }

        private ArchivedSession remap(ArchivedSession s) {
            require(s.id(), "id");
            return new ArchivedSession(ids.map(s.id()), s.status(), s.settings(), s.createdAt(), s.updatedAt(),
                    s.closedAt(), s.firstTurnAt(), s.lastTurnAt());
        }

        private ArchivedTurn remap(ArchivedTurn t) {
            require(t.id(), "id");
            require(t.sessionId(), "sessionId");
            return new ArchivedTurn(ids.map(t.id()), ids.map(t.sessionId()), t.seq(), t.role(), t.speaker(),
                    t.content(), t.createdAt(), t.occurredAt(), ids.map(t.replyTo()));
        }

        private ArchivedMemory remap(ArchivedMemory m) {
            require(m.id(), "id");
            require(m.kind(), "kind");
            return new ArchivedMemory(ids.map(m.id()), m.kind(), m.topic(), m.speaker(), m.text(),
                    ids.map(m.sessionId()), ids.map(m.turnIds()), ids.mapIn(m.dedupKey()), m.version(),
                    m.createdAt(), m.updatedAt(), m.occurredFrom(), m.occurredTo(), m.validTo(),
                    ids.map(m.supersededBy()), m.expiresAt(), m.embeddingModel(), m.embedding());
        }

        private ArchivedRevision remap(ArchivedRevision r) {
            require(r.id(), "id");
            require(r.memoryId(), "memoryId");
            return new ArchivedRevision(ids.map(r.id()), ids.map(r.memoryId()), r.version(), r.text(),
                    ids.map(r.sessionId()), r.reason(), r.createdAt(), r.absorbedText(), ids.map(r.absorbedTurnIds()));
        }

        private ArchivedPassage remap(ArchivedPassage p) {
            require(p.memoryId(), "memoryId");
            return new ArchivedPassage(ids.map(p.memoryId()), p.position(), p.start(), p.end(), p.embeddingModel(),
                    p.embedding());
        }

        private ArchivedEpisode remap(ArchivedEpisode e) {
            require(e.id(), "id");
            return new ArchivedEpisode(ids.map(e.id()), ids.map(e.sessionId()), ids.map(e.questionTurnId()),
                    ids.map(e.replyTurnId()), e.question(), e.status(), ids.mapIn(e.trials()), e.learned(),
                    ids.map(e.learnedMemoryId()), e.createdAt(), e.updatedAt());
        }

        private ArchivedFeedback remap(ArchivedFeedback f) {
            require(f.id(), "id");
            return new ArchivedFeedback(ids.map(f.id()), ids.map(f.turnId()), ids.map(f.episodeId()), f.verdict(),
                    f.hint(), f.answer(), f.outcome(), f.createdAt());
        }

        private void require(Object value, String field) {
            if (value == null) {
                throw invalid("a record without its " + field);
            }
        }

        @SuppressWarnings("unchecked")
        private void flush() {
            if (batch.isEmpty()) {
                return;
            }
            try {
                switch (batchType) {
                    case "session" -> sessions.restoreSessions(tenant, userId, (List<ArchivedSession>) (List<?>) batch);
                    case "turn" -> sessions.restoreTurns(tenant, (List<ArchivedTurn>) (List<?>) batch);
                    case "memory" -> reembedded += memories.restoreMemories(tenant, userId,
                            (List<ArchivedMemory>) (List<?>) batch);
                    case "revision" -> memories.restoreRevisions(tenant, (List<ArchivedRevision>) (List<?>) batch);
                    case "passage" -> memories.restorePassages(tenant, userId, (List<ArchivedPassage>) (List<?>) batch);
                    case "episode" -> feedback.restoreEpisodes(tenant, userId, (List<ArchivedEpisode>) (List<?>) batch);
                    default -> feedback.restoreFeedback(tenant, (List<ArchivedFeedback>) (List<?>) batch);
                }
            } catch (DataAccessException e) {
                throw new InvalidArchiveException("The " + batchType + " records up to line " + line
                        + " cannot be stored: " + firstLine(e.getMostSpecificCause().getMessage()));
            } catch (ApiException e) {
                throw new InvalidArchiveException("The " + batchType + " records up to line " + line + ": "
                        + e.getMessage());
            }
            batch.clear();
        }

        /** The next non-blank line as a JSON object; null at the end of the archive. */
        private ObjectNode next() {
            byte[] bytes;
            do {
                bytes = readLine();
                if (bytes == null) {
                    return null;
                }
                line++;
            } while (isBlank(bytes));
            try {
                JsonNode node = json.readTree(bytes);
                if (!(node instanceof ObjectNode object)) {
                    throw invalid("not a JSON object");
                }
                return object;
            } catch (JacksonException e) {
                throw invalid("not JSON: " + firstLine(e.getOriginalMessage()));
            }
        }

        private byte[] readLine() {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try {
                int b = in.read();
                if (b < 0) {
                    return null;
                }
                while (b >= 0 && b != '\n') {
                    if (bytes.size() >= MAX_LINE_BYTES) {
                        line++;
                        throw invalid("longer than " + MAX_LINE_BYTES + " bytes");
                    }
                    bytes.write(b);
                    b = in.read();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return bytes.toByteArray();
        }

        private InvalidArchiveException invalid(String problem) {
            return new InvalidArchiveException("Line " + line + " of the archive: " + problem);
        }
    }

    private static boolean isBlank(byte[] bytes) {
        for (byte b : bytes) {
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        String first = message.lines().findFirst().orElse("");
        return first.length() > 300 ? first.substring(0, 300) + "…" : first;
    }
}
