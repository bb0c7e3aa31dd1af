package dev.memoir.memory;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import dev.memoir.common.wire.WireNames;

/** How a reply's memory context is chosen from what search finds. */
public enum ContextSelection {

    /**
     * One ranking over every kind the session reads, shown until the prompt's memory budget is full; the model's
     * self-reflection, or the learned reranker, orders the ranking and may add to it, never removes from it.
     */
    BUDGET("budget"),
    /**
     * The papers' reading: the top K of each kind, which self-reflection may narrow to the memories it names
     * relevant (conditional-memory paper) and the reranker to its own top K (RMM).
     */
    PER_KIND("per-kind");

    private final String wireName;

    ContextSelection(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    @JsonCreator
    public static ContextSelection fromWireName(String value) {
        return WireNames.parse(ContextSelection.class, value, "context selection");
    }

    @Override
    public String toString() {
        return wireName;
    }
}
