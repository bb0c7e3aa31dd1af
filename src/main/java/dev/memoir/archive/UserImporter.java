package dev.memoir.archive;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.memoir.archive.ArchiveLine.EpisodeLine;
import dev.memoir.archive.ArchiveLine.FeedbackLine;
import dev.memoir.archive.ArchiveLine.MemoryLine;
import dev.memoir.archive.ArchiveLine.PassageLine;
import dev.memoir.archive.ArchiveLine.RevisionLine;
import dev.memoir.archive.ArchiveLine.SessionLine;
import dev.memoir.archive.ArchiveLine.TurnLine;
import dev.memoir.feedback.FeedbackArchive;
import dev.memoir.feedback.FeedbackArchive.ArchivedEpisode;
import dev.memoir.feedback.FeedbackArchive.ArchivedFeedback;
import dev.memoir.memory.MemoryArchive;
import dev.memoir.memory.MemoryArchive.ArchivedMemory;
import dev.memoir.memory.MemoryArchive.ArchivedPassage;
import dev.memoir.memory.MemoryArchive.ArchivedRevision;
import dev.memoir.memory.MemoryKind;
import dev.memoir.session.SessionArchive;
import dev.memoir.session.SessionArchive.ArchivedSession;
import dev.memoir.session.SessionArchive.ArchivedTurn;
import dev.memoir.tenant.TenantId;
import dev.memoir.web.ApiException;
import dev.memoir.web.ConflictException;
import dev.memoir.web.FieldConstraints;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Restores an archive (see {@link ArchiveFormat}) as one user of one tenant, in one transaction: read line by line
 * and written in batches as it is read, so that an archive of any size passes through a bounded heap, and refused
 * whole, with the line at fault, if any of it cannot be stored. It is held to what the API would accept record by
 * record: strict UTF-8, texts within their limits, instants PostgreSQL stores, every reference to a record of the
 * same archive, supersession by the API's rules. References to a record of an earlier type are checked against
 * what the import has stored so far, before each batch is written; supersession, whose memories may come in any
 * order, once every memory is stored: both in the database, so that no table of the ids seen grows with the
 * archive. Every id is new ({@link IdRemap}); vectors of this deployment's embedding model are reused, the others
 * recomputed. The user must have no data yet, and is held against an erasure or another import of it meanwhile.
 */
@Service
class UserImporter {

    /** A line longer than this is refused: a memory's 20,000 characters and its vectors fit many times over. */
    static final int MAX_LINE_BYTES = 8 << 20;
    private static final int BATCH = 500;

    /** What an import stored. */
    record Imported(String userId, Map<String, Long> counts, int reembedded) {
    }

    /** A record read, where it came from and as it will be stored. */
    private record Entry(long line, ArchiveLine archived, ArchiveLine restored) {
    }

    /** A reference a record makes, by the archive's id and by the id it is stored with. */
    private record Reference(String field, UUID archived, UUID restored, String target) {
    }

    private final SessionArchive sessions;
    private final MemoryArchive memories;
    private final FeedbackArchive feedback;
    private final JsonMapper json;
    private final TransactionTemplate transaction;
    private final ObservationRegistry observations;
    private final ApplicationEventPublisher events;

    UserImporter(SessionArchive sessions, MemoryArchive memories, FeedbackArchive feedback, JsonMapper json,
            PlatformTransactionManager transactions, ObservationRegistry observations,
            ApplicationEventPublisher events) {
        this.events = events;
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
        private final List<Entry> batch = new ArrayList<>();
        // REPORT, not the REPLACE of new String(bytes, UTF_8): an overlong or broken sequence is refused, not read
        // as some other character (C0 AF would be '/').
        private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
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
            return new Imported(userId, counts, reembedded);
        }

        private void header(ObjectNode header) {
            if (header == null || !ArchiveFormat.HEADER.equals(header.path("type").asString(""))) {
                throw invalid("not a Memoir user archive: the first line must have type "
                        + ArchiveFormat.HEADER);
            }
            JsonNode version = header.path("version");
            // An integer: 1.5 is no version of the format, not version 1.
            if (!version.isIntegralNumber() || !version.canConvertToInt() || version.asInt() != ArchiveFormat.VERSION) {
                throw invalid("archive version " + header.path("version") + " is not one this Memoir reads ("
                        + ArchiveFormat.VERSION + ")");
            }
        }

        private Entry read(String type, ObjectNode node) {
            try {
                ArchiveLine archived = ArchiveLine.read(type, node, json);
                checkTexts(type, archived.value());
                String missing = archived.missingField();
                if (missing != null) {
                    throw invalid("a record without its " + missing);
                }
                return new Entry(line, archived, archived.remapped(ids));
            } catch (DatabindException e) {
                String field = e.getPath().stream()
                        .map(ref -> ref.getPropertyName() != null ? ref.getPropertyName() : "[" + ref.getIndex() + "]")
                        .collect(Collectors.joining(".")).replace(".[", "[");
                throw invalid("a " + type + " that cannot be read: " + (field.isEmpty() ? "" : field + " ")
                        + firstLine(e.getOriginalMessage()));
            } catch (JacksonException | IllegalArgumentException e) {
                throw invalid("a " + type + " that cannot be read: " + firstLine(e.getMessage()));
            } catch (InvalidArchiveException e) {
                throw e;
            } catch (ApiException e) {
                throw invalid("a " + type + " that cannot be read: " + e.getMessage());
            }
        }

        private void flush() {
            if (batch.isEmpty()) {
                return;
            }
            checkReferences();
            try {
                switch (batch.getFirst().restored()) {
                    case SessionLine s -> sessions.restoreSessions(tenant, userId, restored(ArchivedSession.class));
                    case TurnLine t -> sessions.restoreTurns(tenant, restored(ArchivedTurn.class));
                    case MemoryLine m -> reembedded += memories.restoreMemories(tenant, userId,
                            restored(ArchivedMemory.class));
                    case RevisionLine r -> memories.restoreRevisions(tenant, userId, restored(ArchivedRevision.class));
                    case PassageLine p -> memories.restorePassages(tenant, userId, restored(ArchivedPassage.class));
                    case EpisodeLine e -> feedback.restoreEpisodes(tenant, userId, restored(ArchivedEpisode.class));
                    case FeedbackLine f -> feedback.restoreFeedback(tenant, restored(ArchivedFeedback.class));
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

        /** The batch's records as they will be stored: a batch holds records of one type. */
        private <R extends Record> List<R> restored(Class<R> type) {
            return batch.stream().map(entry -> type.cast(entry.restored().value())).toList();
        }

        /**
         * Refuses the batch when a record names a record that the archive does not hold before it: every type it
         * references comes earlier in the archive and is stored by now (a turn's reply may also name a turn before
         * it in the same batch). Memories naming each other (supersession) are checked once all are stored.
         */
        private void checkReferences() {
            Map<String, Set<UUID>> named = new HashMap<>();
            for (Entry entry : batch) {
                references(entry.archived(), entry.restored()).forEach(reference -> named
                        .computeIfAbsent(reference.target(), target -> new HashSet<>()).add(reference.restored()));
            }
            Map<String, Set<UUID>> present = new HashMap<>();
            named.forEach((target, restored) -> present.put(target, new HashSet<>(among(target, restored))));
            for (Entry entry : batch) {
                for (Reference reference : references(entry.archived(), entry.restored())) {
                    if (!present.get(reference.target()).contains(reference.restored())) {
                        throw new InvalidArchiveException("Line " + entry.line() + " of the archive: "
                                + entry.archived().describe() + ": " + reference.field() + " " + reference.archived()
                                + " names no " + reference.target() + " of the archive"
                                + (reference.target().equals(batchType) ? " before it" : ""));
                    }
                }
                if (entry.restored() instanceof TurnLine(ArchivedTurn turn) && present.containsKey("turn")) {
                    present.get("turn").add(turn.id());
                }
            }
        }

        private Collection<UUID> among(String target, Set<UUID> ids) {
            return switch (target) {
                case "session" -> sessions.sessionsAmong(tenant, userId, ids);
                case "turn" -> sessions.turnsAmong(tenant, userId, ids);
                case "memory" -> memories.memoriesAmong(tenant, userId, ids);
                default -> feedback.episodesAmong(tenant, userId, ids);
            };
        }

        /** The references a record makes to records of other types, and a turn's to the turn it replies to. */
        private static List<Reference> references(ArchiveLine archived, ArchiveLine restored) {
            List<Reference> references = new ArrayList<>();
            switch (archived) {
                case SessionLine s -> {
                }
                case TurnLine(ArchivedTurn a) when restored instanceof TurnLine(ArchivedTurn r) -> {
                    add(references, "sessionId", a.sessionId(), r.sessionId(), "session");
                    add(references, "replyTo", a.replyTo(), r.replyTo(), "turn");
                }
                case MemoryLine(ArchivedMemory a) when restored instanceof MemoryLine(ArchivedMemory r) -> {
                    add(references, "sessionId", a.sessionId(), r.sessionId(), "session");
                    addAll(references, "turnIds", a.turnIds(), r.turnIds(), "turn");
                }
                case RevisionLine(ArchivedRevision a) when restored instanceof RevisionLine(ArchivedRevision r) -> {
                    add(references, "memoryId", a.memoryId(), r.memoryId(), "memory");
                    add(references, "sessionId", a.sessionId(), r.sessionId(), "session");
                    addAll(references, "absorbedTurnIds", a.absorbedTurnIds(), r.absorbedTurnIds(), "turn");
                }
                case PassageLine(ArchivedPassage a) when restored instanceof PassageLine(ArchivedPassage r) ->
                        add(references, "memoryId", a.memoryId(), r.memoryId(), "memory");
                case EpisodeLine(ArchivedEpisode a) when restored instanceof EpisodeLine(ArchivedEpisode r) -> {
                    add(references, "sessionId", a.sessionId(), r.sessionId(), "session");
                    add(references, "questionTurnId", a.questionTurnId(), r.questionTurnId(), "turn");
                    add(references, "replyTurnId", a.replyTurnId(), r.replyTurnId(), "turn");
                    add(references, "learnedMemoryId", a.learnedMemoryId(), r.learnedMemoryId(), "memory");
                }
                case FeedbackLine(ArchivedFeedback a) when restored instanceof FeedbackLine(ArchivedFeedback r) -> {
                    add(references, "turnId", a.turnId(), r.turnId(), "turn");
                    add(references, "episodeId", a.episodeId(), r.episodeId(), "episode");
                }
                default -> throw new IllegalStateException("A line restored as another type");
            }
            return references;
        }

        private static void add(List<Reference> references, String field, UUID archived, UUID restored,
                String target) {
            if (archived != null) {
                references.add(new Reference(field, archived, restored, target));
            }
        }

        private static void addAll(List<Reference> references, String field, List<UUID> archived,
                List<UUID> restored, String target) {
            for (int i = 0; archived != null && i < archived.size(); i++) {
                add(references, field + "[" + i + "]", archived.get(i), restored.get(i), target);
            }
        }

        /**
         * Text within the limits of the API: a fact's as {@code POST /memory} takes it, and every other text within
         * {@link ArchiveFormat#MAX_TEXT}, which the longest text Memoir writes itself fits.
         */
        private void checkTexts(String type, Object archived) {
            if (archived instanceof ArchivedMemory memory) {
                if (memory.text() == null || memory.text().isBlank()) {
                    throw invalid("memory " + memory.id() + ": text is missing or blank");
                }
                if (memory.kind() == MemoryKind.FACT && memory.text().length() > FieldConstraints.MEMORY_TEXT) {
                    throw invalid("memory " + memory.id() + ": text is " + memory.text().length()
                            + " characters; a fact has at most " + FieldConstraints.MEMORY_TEXT + ", as POST /memory "
                            + "takes it");
                }
            }
            for (RecordComponent component : archived.getClass().getRecordComponents()) {
                if (component.getType() != String.class || component.getName().equals("embedding")) {
                    continue;
                }
                String text;
                try {
                    text = (String) component.getAccessor().invoke(archived);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
                if (text != null && text.length() > ArchiveFormat.MAX_TEXT) {
                    throw invalid("a " + type + "'s " + component.getName() + " is " + text.length()
                            + " characters; an archive's texts have at most " + ArchiveFormat.MAX_TEXT);
                }
            }
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
            String text;
            try {
                text = utf8.reset().decode(ByteBuffer.wrap(bytes)).toString();
            } catch (CharacterCodingException e) {
                throw invalid("not UTF-8: an archive is strict UTF-8, without overlong or broken sequences");
            }
            try {
                JsonNode node = json.readTree(text);
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
