package dev.memoir.usage;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import dev.memoir.common.wire.WireNames;

/** What a usage report's groups are; {@code tenant} is the operator's alone. */
public enum UsageGrouping {
    STEP("step"),
    USER("user_id"),
    MODEL("model"),
    KIND("kind"),
    TENANT("tenant_id::text");

    private final String column;

    UsageGrouping(String column) {
        this.column = column;
    }

    /** The usage_hours expression of the group: a constant of this enum, never a client's text. */
    String column() {
        return column;
    }

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static UsageGrouping fromWireName(String value) {
        return WireNames.parse(UsageGrouping.class, value, "usage grouping");
    }
}
