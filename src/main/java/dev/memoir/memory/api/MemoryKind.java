package dev.memoir.memory.api;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import dev.memoir.common.wire.WireNames;

/** The forms memory takes. Each is written by its own pipeline and retrieved with its own top K. */
public enum MemoryKind {

    /** One record per utterance, "role: content" (conditional-memory paper). */
    HISTORY("history"),
    /** One summary per closed session (conditional-memory paper). */
    SUMMARY("summary"),
    /** Context summary and knowledge note for an utterance worth remembering (conditional-memory paper). */
    CONDITIONAL("conditional"),
    /** A topic of a session with its summary and the span of turns it covers (MemoChat). */
    MEMO("memo"),
    /** The user's one evolving memory document, refolded at every session close (recursive-summary paper). */
    RECURSIVE_SUMMARY("recursive_summary"),
    /** A personal summary of one speaker, added or merged after each session (RMM). */
    TOPIC("topic"),
    /** A corrected memory the assistant wrote after the user's feedback, where no existing memory fit (RAM). */
    REFLECTED("reflected"),
    /**
     * A memory a client added directly (POST /memory), not derived from dialogue: what the user or the application
     * states as known. No session writes it, and every session reads it.
     */
    FACT("fact"),
    /**
     * A standing instruction or preference of the user about how the assistant should answer ("Always include version
     * numbers", "I prefer minimal dependencies"), in the user's words: found in what the user says (by the model
     * steps that judge what to keep, and for the obvious forms without a model), or added by a client. Shown first in
     * every reply, whatever the message, within a share of the memory budget; a later one supersedes it.
     */
    INSTRUCTION("instruction");

    /**
     * The records: memories that each state something on their own, found by search (the top K of each kind) and
     * corrected in place by memory reflection. Memos and the recursive summary are not records: each has a
     * retrieval and an upkeep of its own.
     */
    public static final Set<MemoryKind> RECORDS =
            Collections.unmodifiableSet(EnumSet.of(HISTORY, SUMMARY, CONDITIONAL, TOPIC, REFLECTED, FACT));

    /**
     * The kinds no session writes and every session reads, whatever its strategy: what the user corrected through
     * feedback and what a client added directly.
     */
    public static final Set<MemoryKind> READ_BY_EVERY_SESSION =
            Collections.unmodifiableSet(EnumSet.of(REFLECTED, FACT));

    /**
     * The kinds written from one session alone, which erasing the session erases. Topic memories and the recursive
     * summary combine sessions, and corrections hold for every session: erasing the user removes them.
     */
    public static final Set<MemoryKind> WRITTEN_FROM_ONE_SESSION =
            Collections.unmodifiableSet(EnumSet.of(HISTORY, CONDITIONAL, SUMMARY, MEMO));

    /**
     * The kinds that state facts about the user which can stop being true: a newer memory of these kinds can
     * supersede an older one. History and summaries record what was said and stay true of the dialogue; memos and
     * the recursive summary are rewritten in place.
     */
    public static final Set<MemoryKind> FACT_BEARING =
            Collections.unmodifiableSet(EnumSet.of(CONDITIONAL, TOPIC, REFLECTED, FACT, INSTRUCTION));

    private final String wireName;

    MemoryKind(String wireName) {
        this.wireName = wireName;
    }

    /**
     * Whether a client may add a memory of this kind directly: a fact, or a standing instruction. Every other kind is
     * derived by Memoir from dialogue or feedback, with invariants a client could not keep: one history record per
     * turn, one summary per session, memos with their dialogue span, one recursive summary per user, topic memories
     * with their speaker and turns, reflected memories with their learning episode.
     */
    public boolean addable() {
        return this == FACT || this == INSTRUCTION;
    }

    /**
     * Whether memories of this kind record what was said, word for word: a history memory is its turn. Only a
     * client edits such a memory (as it edits the turn); what a model learns about it is written beside it.
     */
    public boolean verbatim() {
        return this == HISTORY;
    }

    public boolean factBearing() {
        return FACT_BEARING.contains(this);
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    @JsonCreator
    public static MemoryKind fromWireName(String value) {
        return WireNames.parse(MemoryKind.class, value, "memory kind");
    }

    public static String known() {
        return WireNames.accepted(MemoryKind.class);
    }

    @Override
    public String toString() {
        return wireName;
    }
}
