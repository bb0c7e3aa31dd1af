package dev.memoir.memory.api;

import java.util.Objects;
import java.util.UUID;

import dev.memoir.common.Hashes;
import dev.memoir.tenant.TenantId;

/**
 * The key that makes writing a memory idempotent: a memory written again under the same key for the same user
 * returns the one already there instead of adding another (retried jobs rely on this). Each form names what the
 * memory was written from. Their text is stored with the memory and carried by archives, so it never changes: a
 * form made differently would no longer find the rows and archives written before.
 */
public record DedupKey(String value) {

    public DedupKey {
        Objects.requireNonNull(value, "value");
    }

    /** A key as stored (or as an archive carries it); null for none. */
    public static DedupKey parse(String stored) {
        return stored == null ? null : new DedupKey(stored);
    }

    /** A fact's: the same text added again for the same user finds the fact that has it. */
    public static DedupKey fact(TenantId tenant, String userId, String text) {
        return added(MemoryKind.FACT, tenant, userId, text);
    }

    /**
     * A memory's a client added (a fact, a standing instruction): the same text of the same kind added again for the
     * same user finds the memory that has it.
     */
    public static DedupKey added(MemoryKind kind, TenantId tenant, String userId, String text) {
        return new DedupKey(kind.wireName() + ":" + Hashes.sha256(tenant.value() + "\n" + userId + "\n" + text));
    }

    /** The user's one recursive summary's. */
    public static DedupKey recursiveSummary(TenantId tenant, String userId) {
        return new DedupKey("recursive_summary:" + tenant + ":" + userId);
    }

    /** The history memory of one turn. */
    public static DedupKey history(UUID turnId) {
        return new DedupKey("history:" + turnId);
    }

    /** The conditional memory written from one user turn. */
    public static DedupKey conditional(UUID userTurnId) {
        return new DedupKey("conditional:" + userTurnId);
    }

    /** The {@code n}th standing instruction found in one user turn (from 0). */
    public static DedupKey instruction(UUID userTurnId, int n) {
        return new DedupKey(INSTRUCTION_OF_TURN + userTurnId + ":" + n);
    }

    private static final String INSTRUCTION_OF_TURN = "instruction:turn:";

    /**
     * A standing instruction the summary of a closed session found: the same text found again in the same session (a
     * retried job) is the same memory.
     */
    public static DedupKey instructionOfSession(UUID sessionId, String text) {
        return new DedupKey(INSTRUCTION_OF_SESSION + sessionId + ":" + Hashes.sha256(text));
    }

    private static final String INSTRUCTION_OF_SESSION = "instruction:session:";

    /** A session's summary. */
    public static DedupKey summary(UUID sessionId) {
        return new DedupKey("summary:" + sessionId);
    }

    /** The topic memory added for one topic candidate. */
    public static DedupKey topic(UUID candidateId) {
        return new DedupKey("topic:" + candidateId);
    }

    /** The correction learned from one feedback episode. */
    public static DedupKey reflected(UUID episodeId) {
        return new DedupKey("reflected:" + episodeId);
    }

    /** A memo of a span of a session, covering the turns {@code fromSeq} to {@code toSeq}. */
    public static DedupKey memo(String spanId, long fromSeq, long toSeq) {
        return new DedupKey(memoSpanPrefix(spanId) + fromSeq + "-" + toSeq);
    }

    /** What the keys of every memo of one span start with (a span's memos are written together). */
    public static String memoSpanPrefix(String spanId) {
        return "memo:" + spanId + ":";
    }

    /**
     * This key for a memory of this kind under a new owner (a user archive restored as another tenant's or user's):
     * the keys that name their owner, a fact's and the recursive summary's, are made anew; the others are kept.
     */
    public DedupKey reowned(MemoryKind kind, TenantId tenant, String userId, String text) {
        return switch (kind) {
            case FACT -> fact(tenant, userId, text);
            case INSTRUCTION ->
                value.startsWith(INSTRUCTION_OF_TURN) || value.startsWith(INSTRUCTION_OF_SESSION)
                        ? this
                        : added(kind, tenant, userId, text);
            case RECURSIVE_SUMMARY -> recursiveSummary(tenant, userId);
            default -> this;
        };
    }

    @Override
    public String toString() {
        return value;
    }
}
