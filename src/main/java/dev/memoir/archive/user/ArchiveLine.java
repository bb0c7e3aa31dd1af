package dev.memoir.archive.user;

import java.util.Set;

import dev.memoir.feedback.FeedbackArchive.ArchivedEpisode;
import dev.memoir.feedback.FeedbackArchive.ArchivedFeedback;
import dev.memoir.memory.api.ArchivedMemory;
import dev.memoir.memory.api.ArchivedPassage;
import dev.memoir.memory.api.ArchivedRevision;
import dev.memoir.session.SessionArchive.ArchivedSession;
import dev.memoir.session.SessionArchive.ArchivedTurn;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A record line of an archive, as the record its type names. A line's type name is mapped to its record in one
 * place ({@link #read}); everything done with a line after that is a switch over these, which the compiler holds
 * to every type.
 */
sealed interface ArchiveLine {

    /** The record, as archived or as it will be stored. */
    Record value();

    record SessionLine(ArchivedSession value) implements ArchiveLine {}

    record TurnLine(ArchivedTurn value) implements ArchiveLine {}

    record MemoryLine(ArchivedMemory value) implements ArchiveLine {}

    record RevisionLine(ArchivedRevision value) implements ArchiveLine {}

    record PassageLine(ArchivedPassage value) implements ArchiveLine {}

    record EpisodeLine(ArchivedEpisode value) implements ArchiveLine {}

    record FeedbackLine(ArchivedFeedback value) implements ArchiveLine {}

    /** The line of a type of {@link ArchiveFormat#ORDER}, read from its fields (without its type). */
    static ArchiveLine read(String type, JsonNode fields, JsonMapper json) {
        return switch (type) {
            case "session" -> new SessionLine(json.treeToValue(fields, ArchivedSession.class));
            case "turn" -> new TurnLine(json.treeToValue(fields, ArchivedTurn.class));
            case "memory" -> new MemoryLine(json.treeToValue(fields, ArchivedMemory.class));
            case "revision" -> new RevisionLine(json.treeToValue(fields, ArchivedRevision.class));
            case "passage" -> new PassageLine(json.treeToValue(fields, ArchivedPassage.class));
            case "episode" -> new EpisodeLine(json.treeToValue(fields, ArchivedEpisode.class));
            case "feedback" -> new FeedbackLine(json.treeToValue(fields, ArchivedFeedback.class));
            default -> throw new IllegalStateException("An archive has no records of type " + type);
        };
    }

    /** The type the line has in the archive. */
    default String type() {
        return switch (this) {
            case SessionLine s -> "session";
            case TurnLine t -> "turn";
            case MemoryLine m -> "memory";
            case RevisionLine r -> "revision";
            case PassageLine p -> "passage";
            case EpisodeLine e -> "episode";
            case FeedbackLine f -> "feedback";
        };
    }

    /** The record as a refusal names it. */
    default String describe() {
        return switch (this) {
            case SessionLine(ArchivedSession s) -> "session " + s.id();
            case TurnLine(ArchivedTurn t) -> "turn " + t.id();
            case MemoryLine(ArchivedMemory m) -> "memory " + m.id();
            case RevisionLine(ArchivedRevision r) -> "revision " + r.id();
            case PassageLine(ArchivedPassage p) -> "a passage of memory " + p.memoryId();
            case EpisodeLine(ArchivedEpisode e) -> "episode " + e.id();
            case FeedbackLine(ArchivedFeedback f) -> "feedback " + f.id();
        };
    }

    /** The first field the record cannot be stored without that it lacks; null when it has them all. */
    default String missingField() {
        return switch (this) {
            case SessionLine(ArchivedSession s) -> s.id() == null ? "id" : null;
            case TurnLine(ArchivedTurn t) ->
                t.id() == null ? "id" : t.sessionId() == null ? "sessionId" : t.role() == null ? "role" : null;
            case MemoryLine(ArchivedMemory m) -> m.id() == null ? "id" : m.kind() == null ? "kind" : null;
            case RevisionLine(ArchivedRevision r) -> r.id() == null ? "id" : r.memoryId() == null ? "memoryId" : null;
            case PassageLine(ArchivedPassage p) -> p.memoryId() == null ? "memoryId" : null;
            case EpisodeLine(ArchivedEpisode e) -> e.id() == null ? "id" : null;
            case FeedbackLine(ArchivedFeedback f) -> f.id() == null ? "id" : null;
        };
    }

    /**
     * What the record holds that no row can, named for the client; null when nothing: a turn's role is one of the
     * dialogue's, as the archive writes them ({@code USER}, {@code ASSISTANT}).
     */
    default String impossibleValue() {
        if (this instanceof TurnLine(ArchivedTurn t) && !TURN_ROLES.contains(t.role())) {
            String role = t.role().length() > 40 ? t.role().substring(0, 40) + "..." : t.role();
            return "turn " + t.id() + " with role '" + role + "': a turn's role is USER or ASSISTANT";
        }
        return null;
    }

    /** The roles of the dialogue as the archive writes them. */
    Set<String> TURN_ROLES = Set.of("USER", "ASSISTANT");

    /** The line as it will be stored: every id it holds, and every id in its texts, mapped to the import's own. */
    default ArchiveLine remapped(IdRemap ids) {
        return switch (this) {
            case SessionLine(ArchivedSession s) -> new SessionLine(remapped(s, ids));
            case TurnLine(ArchivedTurn t) -> new TurnLine(remapped(t, ids));
            case MemoryLine(ArchivedMemory m) -> new MemoryLine(remapped(m, ids));
            case RevisionLine(ArchivedRevision r) -> new RevisionLine(remapped(r, ids));
            case PassageLine(ArchivedPassage p) -> new PassageLine(remapped(p, ids));
            case EpisodeLine(ArchivedEpisode e) -> new EpisodeLine(remapped(e, ids));
            case FeedbackLine(ArchivedFeedback f) -> new FeedbackLine(remapped(f, ids));
        };
    }

    private static ArchivedSession remapped(ArchivedSession s, IdRemap ids) {
        return new ArchivedSession(
                ids.map(s.id()),
                s.status(),
                s.settings(),
                s.createdAt(),
                s.updatedAt(),
                s.closedAt(),
                s.firstTurnAt(),
                s.lastTurnAt(),
                s.title());
    }

    private static ArchivedTurn remapped(ArchivedTurn t, IdRemap ids) {
        return new ArchivedTurn(
                ids.map(t.id()),
                ids.map(t.sessionId()),
                t.seq(),
                t.role(),
                t.speaker(),
                t.content(),
                t.createdAt(),
                t.occurredAt(),
                ids.map(t.replyTo()),
                t.origin());
    }

    private static ArchivedMemory remapped(ArchivedMemory m, IdRemap ids) {
        return new ArchivedMemory(
                ids.map(m.id()),
                m.kind(),
                m.topic(),
                m.speaker(),
                m.text(),
                ids.map(m.sessionId()),
                ids.map(m.turnIds()),
                ids.mapIn(m.dedupKey()),
                m.version(),
                m.createdAt(),
                m.updatedAt(),
                m.occurredFrom(),
                m.occurredTo(),
                m.validTo(),
                ids.map(m.supersededBy()),
                m.expiresAt(),
                m.embeddingModel(),
                m.embedding(),
                m.source(),
                m.sourceDetail(),
                m.trust());
    }

    private static ArchivedRevision remapped(ArchivedRevision r, IdRemap ids) {
        return new ArchivedRevision(
                ids.map(r.id()),
                ids.map(r.memoryId()),
                r.version(),
                r.text(),
                ids.map(r.sessionId()),
                r.reason(),
                r.createdAt(),
                r.absorbedText(),
                ids.map(r.absorbedTurnIds()));
    }

    private static ArchivedPassage remapped(ArchivedPassage p, IdRemap ids) {
        return new ArchivedPassage(
                ids.map(p.memoryId()), p.position(), p.start(), p.end(), p.embeddingModel(), p.embedding());
    }

    private static ArchivedEpisode remapped(ArchivedEpisode e, IdRemap ids) {
        return new ArchivedEpisode(
                ids.map(e.id()),
                ids.map(e.sessionId()),
                ids.map(e.questionTurnId()),
                ids.map(e.replyTurnId()),
                e.question(),
                e.status(),
                ids.mapIn(e.trials()),
                e.learned(),
                ids.map(e.learnedMemoryId()),
                e.createdAt(),
                e.updatedAt());
    }

    private static ArchivedFeedback remapped(ArchivedFeedback f, IdRemap ids) {
        return new ArchivedFeedback(
                ids.map(f.id()),
                ids.map(f.turnId()),
                ids.map(f.episodeId()),
                f.verdict(),
                f.hint(),
                f.answer(),
                f.outcome(),
                f.createdAt());
    }
}
