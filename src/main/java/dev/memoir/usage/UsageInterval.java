package dev.memoir.usage;

import java.time.Duration;
import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import dev.memoir.common.wire.WireNames;

/** The length of each point of a usage series. */
public enum UsageInterval {
    HOUR(Duration.ofHours(1), Duration.ofDays(31)),
    DAY(Duration.ofDays(1), Duration.ofDays(400));

    private final Duration length;
    private final Duration longestRange;

    UsageInterval(Duration length, Duration longestRange) {
        this.length = length;
        this.longestRange = longestRange;
    }

    Duration length() {
        return length;
    }

    /** The longest range a report of this interval may cover: 31 days of hours, 400 of days. */
    Duration longestRange() {
        return longestRange;
    }

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static UsageInterval fromWireName(String value) {
        return WireNames.parse(UsageInterval.class, value, "usage interval");
    }
}
