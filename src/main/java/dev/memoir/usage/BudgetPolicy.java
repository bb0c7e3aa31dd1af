package dev.memoir.usage;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import dev.memoir.common.wire.WireNames;

/**
 * What a used-up budget stops. Under every policy the turns are still stored and searchable, and background memory
 * jobs wait (deferred) until the budget renews or is raised; searches, reads, exports and erasure are never stopped.
 */
public enum BudgetPolicy {
    /** Replies are still answered in full (self-reflection included); only background jobs wait. */
    DEFER,
    /** Replies are answered with memory search only: no self-reflection or memo selection steps. */
    REPLY_ONLY,
    /** Every request that would call the chat model is answered 429 {@code budget-exhausted}. */
    REFUSE;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    @JsonCreator
    public static BudgetPolicy fromWireName(String value) {
        return WireNames.parse(BudgetPolicy.class, value, "budget policy");
    }

    static BudgetPolicy ofWireName(String value) {
        return fromWireName(value);
    }
}
