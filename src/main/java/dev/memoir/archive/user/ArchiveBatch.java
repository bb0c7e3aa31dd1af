package dev.memoir.archive.user;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.springframework.dao.DataAccessException;

import dev.memoir.archive.user.ArchiveLine.EpisodeLine;
import dev.memoir.archive.user.ArchiveLine.FeedbackLine;
import dev.memoir.archive.user.ArchiveLine.MemoryLine;
import dev.memoir.archive.user.ArchiveLine.PassageLine;
import dev.memoir.archive.user.ArchiveLine.RevisionLine;
import dev.memoir.archive.user.ArchiveLine.SessionLine;
import dev.memoir.archive.user.ArchiveLine.TurnLine;
import dev.memoir.common.web.ApiException;
import dev.memoir.feedback.FeedbackArchive;
import dev.memoir.feedback.FeedbackArchive.ArchivedEpisode;
import dev.memoir.feedback.FeedbackArchive.ArchivedFeedback;
import dev.memoir.memory.MemoryArchive;
import dev.memoir.memory.api.ArchivedMemory;
import dev.memoir.memory.api.ArchivedPassage;
import dev.memoir.memory.api.ArchivedRevision;
import dev.memoir.session.SessionArchive;
import dev.memoir.session.SessionArchive.ArchivedSession;
import dev.memoir.session.SessionArchive.ArchivedTurn;
import dev.memoir.tenant.TenantId;

/**
 * The records of one type an import has read and not yet written, each with its new ids ({@link IdRemap}), written
 * together when {@link UserImporter} flushes them (the batch is full, the type changes, the archive ends). References
 * to records of an earlier type are checked against what the import has stored so far, in the database, so that no
 * table of the ids seen grows with the archive.
 */
final class ArchiveBatch {

    private static final int SIZE = 500;

    /** A record read, where it came from and as it will be stored. */
    private record Entry(long line, ArchiveLine archived, ArchiveLine restored) {}

    /** A reference a record makes, by the archive's id, to a record of the target type. */
    private record Reference(String field, UUID archived, String target) {}

    private final SessionArchive sessions;
    private final MemoryArchive memories;
    private final FeedbackArchive feedback;
    private final TenantId tenant;
    private final String userId;
    private final IdRemap ids;
    private final List<Entry> entries = new ArrayList<>();
    private int reembedded;

    ArchiveBatch(
            SessionArchive sessions,
            MemoryArchive memories,
            FeedbackArchive feedback,
            TenantId tenant,
            String userId,
            IdRemap ids) {
        this.sessions = sessions;
        this.memories = memories;
        this.feedback = feedback;
        this.tenant = tenant;
        this.userId = userId;
        this.ids = ids;
    }

    boolean isFull() {
        return entries.size() >= SIZE;
    }

    /** Adds the record read at {@code line}, of the type of the records in the batch. */
    void add(long line, ArchiveLine archived) {
        entries.add(new Entry(line, archived, archived.remapped(ids)));
    }

    /** Memories embedded again so far, because their vectors came from another embedding model. */
    int reembedded() {
        return reembedded;
    }

    /** Writes the batch; {@code line}, where the reading is, is named if it cannot be stored. */
    void flush(long line) {
        if (entries.isEmpty()) {
            return;
        }
        String type = entries.getFirst().archived().type();
        checkReferences(type);
        try {
            switch (entries.getFirst().restored()) {
                case SessionLine s -> sessions.restoreSessions(tenant, userId, restored(ArchivedSession.class));
                case TurnLine t -> sessions.restoreTurns(tenant, restored(ArchivedTurn.class));
                case MemoryLine m ->
                    reembedded += memories.restoreMemories(tenant, userId, restored(ArchivedMemory.class));
                case RevisionLine r -> memories.restoreRevisions(tenant, userId, restored(ArchivedRevision.class));
                case PassageLine p -> memories.restorePassages(tenant, userId, restored(ArchivedPassage.class));
                case EpisodeLine e -> feedback.restoreEpisodes(tenant, userId, restored(ArchivedEpisode.class));
                case FeedbackLine f -> feedback.restoreFeedback(tenant, restored(ArchivedFeedback.class));
            }
        } catch (DataAccessException e) {
            throw new InvalidArchiveException("The " + type + " records up to line " + line + " cannot be stored: "
                    + ArchiveReader.firstLine(e.getMostSpecificCause().getMessage()));
        } catch (ApiException e) {
            throw new InvalidArchiveException("The " + type + " records up to line " + line + ": " + e.getMessage());
        }
        entries.clear();
    }

    /** The batch's records as they will be stored: a batch holds records of one type. */
    private <R extends Record> List<R> restored(Class<R> type) {
        return entries.stream()
                .map(entry -> type.cast(entry.restored().value()))
                .toList();
    }

    /**
     * Refuses the batch when a record names a record that the archive does not hold before it: every type it
     * references comes earlier in the archive and is stored by now (a turn's reply may also name a turn before
     * it in the same batch). Memories naming each other (supersession) are checked once all are stored.
     */
    private void checkReferences(String type) {
        Map<String, Set<UUID>> named = new HashMap<>();
        for (Entry entry : entries) {
            references(entry.archived())
                    .forEach(reference -> named.computeIfAbsent(reference.target(), target -> new HashSet<>())
                            .add(ids.map(reference.archived())));
        }
        Map<String, Set<UUID>> present = new HashMap<>();
        named.forEach((target, restored) -> present.put(target, new HashSet<>(among(target, restored))));
        for (Entry entry : entries) {
            for (Reference reference : references(entry.archived())) {
                if (!present.get(reference.target()).contains(ids.map(reference.archived()))) {
                    throw new InvalidArchiveException("Line " + entry.line() + " of the archive: "
                            + entry.archived().describe() + ": " + reference.field() + " " + reference.archived()
                            + " names no " + reference.target() + " of the archive"
                            + (reference.target().equals(type) ? " before it" : ""));
                }
            }
            if (entry.restored() instanceof TurnLine(ArchivedTurn turn) && present.containsKey("turn")) {
                present.get("turn").add(turn.id());
            }
        }
    }

    private Collection<UUID> among(String target, Set<UUID> restored) {
        return switch (target) {
            case "session" -> sessions.sessionsAmong(tenant, userId, restored);
            case "turn" -> sessions.turnsAmong(tenant, userId, restored);
            case "memory" -> memories.memoriesAmong(tenant, userId, restored);
            default -> feedback.episodesAmong(tenant, userId, restored);
        };
    }

    /** The references a record makes to records of other types, and a turn's to the turn it replies to. */
    private static List<Reference> references(ArchiveLine archived) {
        List<Reference> references = new ArrayList<>();
        switch (archived) {
            case SessionLine s -> {}
            case TurnLine(ArchivedTurn t) -> {
                add(references, "sessionId", t.sessionId(), "session");
                add(references, "replyTo", t.replyTo(), "turn");
            }
            case MemoryLine(ArchivedMemory m) -> {
                add(references, "sessionId", m.sessionId(), "session");
                addAll(references, "turnIds", m.turnIds(), "turn");
            }
            case RevisionLine(ArchivedRevision r) -> {
                add(references, "memoryId", r.memoryId(), "memory");
                add(references, "sessionId", r.sessionId(), "session");
                addAll(references, "absorbedTurnIds", r.absorbedTurnIds(), "turn");
            }
            case PassageLine(ArchivedPassage p) -> add(references, "memoryId", p.memoryId(), "memory");
            case EpisodeLine(ArchivedEpisode e) -> {
                add(references, "sessionId", e.sessionId(), "session");
                add(references, "questionTurnId", e.questionTurnId(), "turn");
                add(references, "replyTurnId", e.replyTurnId(), "turn");
                add(references, "learnedMemoryId", e.learnedMemoryId(), "memory");
            }
            case FeedbackLine(ArchivedFeedback f) -> {
                add(references, "turnId", f.turnId(), "turn");
                add(references, "episodeId", f.episodeId(), "episode");
            }
        }
        return references;
    }

    private static void add(List<Reference> references, String field, UUID archived, String target) {
        if (archived != null) {
            references.add(new Reference(field, archived, target));
        }
    }

    private static void addAll(List<Reference> references, String field, List<UUID> archived, String target) {
        for (int i = 0; archived != null && i < archived.size(); i++) {
            add(references, field + "[" + i + "]", archived.get(i), target);
        }
    }
}
