package dev.memoir.usage;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Map;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How usage is recorded and priced ({@code memoir.usage.*}).
 *
 * @param flushEvery       how often each instance writes the usage it holds to the database; what an instance holds
 *                         when it crashes (at most this long's worth) is not recorded
 * @param keepCalls        how long each request's own row is kept; the hourly sums are kept for good. Zero keeps
 *                         no request rows
 * @param purgeEvery       how often request rows older than {@code keepCalls} are deleted
 * @param bufferLimit      the most requests an instance holds between writes: beyond it (the database unreachable
 *                         for long) the oldest are dropped, counted by {@code memoir.usage.dropped}
 * @param currency         the currency the prices are in, shown beside every estimated cost
 * @param prices           price per model, by the model name the server answers with (or the configured one):
 *                         {@code memoir.usage.prices.[gpt-4o-mini].input-per-million=0.15}. A model without one has
 *                         no estimated cost
 * @param metricsTenantTag whether the {@code memoir.usage.*} meters carry a {@code tenant} tag: one series per
 *                         tenant, step and model, which a monitoring system with many tenants may not hold
 * @param budgetRefresh    how long an instance uses the budgets it read before reading them again: a budget set or
 *                         changed on one instance applies on the others within this (the counts are always shared)
 * @param budgetLookAgain  how often a job held back by a used-up budget looks again whether it may run, besides
 *                         when the budget renews and at once when it is raised on any instance
 */
@Validated
@ConfigurationProperties("memoir.usage")
record UsageProperties(
        @DefaultValue("5s") @NotNull @DurationMin(millis = 10)
        Duration flushEvery,

        @DefaultValue("2d") @NotNull @DurationMin(seconds = 0)
        Duration keepCalls,

        @DefaultValue("1h") @NotNull @DurationMin(seconds = 1)
        Duration purgeEvery,

        @DefaultValue("100000") @Min(100) @Max(10_000_000) int bufferLimit,
        @DefaultValue("USD") @NotBlank String currency,
        Map<String, @Valid Price> prices,
        @DefaultValue("false") boolean metricsTenantTag,

        @DefaultValue("10s") @NotNull @DurationMin(millis = 10)
        Duration budgetRefresh,

        @DefaultValue("10m") @NotNull @DurationMin(seconds = 1)
        Duration budgetLookAgain) {

    /** A model's price per million tokens, of the prompt and of the answer. */
    record Price(
            @NotNull @DecimalMin("0") BigDecimal inputPerMillion,
            @NotNull @DecimalMin("0") BigDecimal outputPerMillion) {}

    UsageProperties {
        prices = prices == null ? Map.of() : Map.copyOf(prices);
    }

    /** The estimated cost of a request to the model; zero for a model without a price. */
    BigDecimal cost(String model, long promptTokens, long completionTokens) {
        Price price = prices.get(model);
        if (price == null) {
            return BigDecimal.ZERO;
        }
        return price.inputPerMillion()
                .multiply(BigDecimal.valueOf(promptTokens))
                .add(price.outputPerMillion().multiply(BigDecimal.valueOf(completionTokens)))
                .divide(MILLION, 9, RoundingMode.HALF_UP);
    }

    private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);
}
