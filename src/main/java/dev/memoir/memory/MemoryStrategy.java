package dev.memoir.memory;

import static dev.memoir.memory.api.MemoryKind.CONDITIONAL;
import static dev.memoir.memory.api.MemoryKind.HISTORY;
import static dev.memoir.memory.api.MemoryKind.MEMO;
import static dev.memoir.memory.api.MemoryKind.RECURSIVE_SUMMARY;
import static dev.memoir.memory.api.MemoryKind.SUMMARY;
import static dev.memoir.memory.api.MemoryKind.TOPIC;

import java.util.EnumSet;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import dev.memoir.common.wire.WireNames;
import dev.memoir.memory.api.MemoryKind;

/** Named memory strategies: the forms a session writes and reads. */
public enum MemoryStrategy {

    /** Conditional memory alone: the conditional-memory paper's best single form. */
    CONDITIONAL_ONLY("conditional", EnumSet.of(CONDITIONAL)),
    /** Conditional records plus session summaries: the conditional-memory paper's best multi-view combination. */
    CONDITIONAL_AND_SUMMARY("conditional+summary", EnumSet.of(CONDITIONAL, SUMMARY)),
    /** Seed 000's full multi-view memory: every utterance, conditional records and session summaries. */
    MULTI_VIEW("multi-view", EnumSet.of(HISTORY, CONDITIONAL, SUMMARY)),
    /** MemoChat: topic memos written from the dialogue and chosen by the model (MemoChat). */
    MEMOCHAT("memochat", EnumSet.of(MEMO)),
    /** One evolving summary per user, refolded at every session close (recursive-summary paper). */
    RECURSIVE("recursive", EnumSet.of(RECURSIVE_SUMMARY)),
    /** Reflective Memory Management: per-speaker topic memories, reranked by what replies cite (RMM). */
    RMM("rmm", EnumSet.of(TOPIC), true),
    /**
     * Every form at once, with self-reflection rather than the reranker. (Reflected memories and facts are not forms
     * a session writes: the user's feedback and the client write them, and every session reads them.)
     */
    ALL("all", EnumSet.complementOf(EnumSet.copyOf(MemoryKind.READ_BY_EVERY_SESSION)));

    private final String wireName;
    private final Set<MemoryKind> kinds;
    private final boolean rerank;

    MemoryStrategy(String wireName, Set<MemoryKind> kinds) {
        this(wireName, kinds, false);
    }

    /** Every preset writes and reads the user's standing instructions too: they are no paper's form, but every reply's. */
    MemoryStrategy(String wireName, Set<MemoryKind> kinds, boolean rerank) {
        this.wireName = wireName;
        this.kinds = EnumSet.copyOf(kinds);
        this.kinds.add(MemoryKind.INSTRUCTION);
        this.rerank = rerank;
    }

    public Set<MemoryKind> kinds() {
        return Set.copyOf(kinds);
    }

    /** Whether retrieval goes through the learned reranker. */
    public boolean rerank() {
        return rerank;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    @JsonCreator
    public static MemoryStrategy fromWireName(String value) {
        return WireNames.parse(MemoryStrategy.class, value, "memory strategy");
    }

    @Override
    public String toString() {
        return wireName;
    }
}
