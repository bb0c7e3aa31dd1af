package dev.memoir.memory.api;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import dev.memoir.common.wire.WireNames;

/**
 * How far a memory's words may be trusted, by where they came from (docs/trust.md, "Source and trust"): the user's
 * own words and what a client states high, the assistant's and a model's medium, anything read from a file or another
 * assistant's export low. A memory made from others is trusted as little as the least of them.
 */
public enum Trust {
    LOW(1),
    MEDIUM(2),
    HIGH(3);

    private final int rank;

    Trust(int rank) {
        this.rank = rank;
    }

    /** What the database stores: 1, 2, 3, so that a minimum is a comparison. */
    public int rank() {
        return rank;
    }

    public static Trust ofRank(int rank) {
        for (Trust trust : values()) {
            if (trust.rank == rank) {
                return trust;
            }
        }
        throw new IllegalArgumentException("no trust of rank " + rank);
    }

    public Trust atMost(Trust other) {
        return other == null || rank <= other.rank ? this : other;
    }

    public boolean atLeast(Trust minimum) {
        return minimum == null || rank >= minimum.rank;
    }

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static Trust fromWireName(String value) {
        return WireNames.parse(Trust.class, value, "trust");
    }

    @Override
    public String toString() {
        return wireName();
    }
}
