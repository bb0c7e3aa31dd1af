package dev.memoir.usage;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import dev.memoir.common.wire.WireNames;

/** How long a budget's count runs before it starts again: a calendar day or month, in UTC. */
public enum BudgetPeriod {
    DAY,
    MONTH;

    /** The start of the period {@code at} falls in. */
    Instant start(Instant at) {
        LocalDate day = at.atZone(ZoneOffset.UTC).toLocalDate();
        return (this == DAY ? day : day.withDayOfMonth(1))
                .atStartOfDay(ZoneOffset.UTC)
                .toInstant();
    }

    /** The end of the period that starts at {@code start}: when the budget renews. */
    Instant end(Instant start) {
        LocalDate day = start.atZone(ZoneOffset.UTC).toLocalDate();
        return (this == DAY ? day.plus(1, ChronoUnit.DAYS) : day.plus(1, ChronoUnit.MONTHS))
                .atStartOfDay(ZoneOffset.UTC)
                .toInstant();
    }

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static BudgetPeriod fromWireName(String value) {
        return WireNames.parse(BudgetPeriod.class, value, "budget period");
    }
}
