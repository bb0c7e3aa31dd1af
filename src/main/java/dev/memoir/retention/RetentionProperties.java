package dev.memoir.retention;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import dev.memoir.memory.api.MemoryKind;

/**
 * How long Memoir keeps each kind of memory ({@code memoir.retention.*}), counted from when it wrote the memory;
 * none by default (kept until deleted or erased). The operator can override a kind's retention per tenant.
 *
 * @param purgeInterval how often the retention job deletes expired memories and those past their retention
 * @param batch         memories deleted per transaction (the job repeats until none is left)
 */
@Validated
@ConfigurationProperties("memoir.retention")
record RetentionProperties(
        @DefaultValue("1h") @NotNull @DurationMin(seconds = 1)
        Duration purgeInterval,

        @DefaultValue("1000") @Min(1) @Max(100_000) int batch,
        @DurationMin(minutes = 1) Duration history,
        @DurationMin(minutes = 1) Duration summary,
        @DurationMin(minutes = 1) Duration conditional,
        @DurationMin(minutes = 1) Duration memo,
        @DurationMin(minutes = 1) Duration recursiveSummary,
        @DurationMin(minutes = 1) Duration topic,
        @DurationMin(minutes = 1) Duration reflected,
        @DurationMin(minutes = 1) Duration fact,
        @DurationMin(minutes = 1) Duration instruction) {

    /** The kinds with a retention, and how long each is kept. */
    Map<MemoryKind, Duration> byKind() {
        Map<MemoryKind, Duration> kept = new EnumMap<>(MemoryKind.class);
        put(kept, MemoryKind.HISTORY, history);
        put(kept, MemoryKind.SUMMARY, summary);
        put(kept, MemoryKind.CONDITIONAL, conditional);
        put(kept, MemoryKind.MEMO, memo);
        put(kept, MemoryKind.RECURSIVE_SUMMARY, recursiveSummary);
        put(kept, MemoryKind.TOPIC, topic);
        put(kept, MemoryKind.REFLECTED, reflected);
        put(kept, MemoryKind.FACT, fact);
        put(kept, MemoryKind.INSTRUCTION, instruction);
        return kept;
    }

    private static void put(Map<MemoryKind, Duration> kept, MemoryKind kind, Duration keepFor) {
        if (keepFor != null) {
            kept.put(kind, keepFor);
        }
    }
}
