package dev.memoir.webhook;

import java.time.Duration;
import java.util.List;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Webhooks ({@code memoir.webhooks.*}).
 *
 * @param allowedHosts        host names (as the endpoint's URL spells them) that may be delivered to although they
 *                            are, or resolve to, a loopback, private, link-local or metadata address; empty by default
 * @param timeout             how long one delivery attempt may take as a whole: resolving the host, connecting,
 *                            sending, the receiver's status line and headers, and discarding its answer's body
 * @param attemptsPerEndpoint attempts in flight at once to one endpoint, per instance and across instances: a
 *                            receiver that stalls holds this many connections, and its other deliveries wait
 * @param maxEndpoints        endpoints a tenant may register
 * @param keepDelivered       how long a delivered delivery's row (its payload included) is kept for
 *                            {@code GET /webhooks/{id}/deliveries} before it is purged
 * @param purgeEvery          how often the {@code webhook-purge} job deletes the rows past {@code keepDelivered}
 */
@Validated
@ConfigurationProperties("memoir.webhooks")
record WebhookProperties(
        List<String> allowedHosts,

        @DefaultValue("5s") @NotNull @DurationMin(millis = 1)
        Duration timeout,

        @DefaultValue("4") @Min(1) int attemptsPerEndpoint,
        @DefaultValue("20") @Min(1) int maxEndpoints,

        @DefaultValue("7d") @NotNull @DurationMin(seconds = 1)
        Duration keepDelivered,

        @DefaultValue("1h") @NotNull @DurationMin(seconds = 1)
        Duration purgeEvery) {

    WebhookProperties {
        allowedHosts = allowedHosts == null ? List.of() : List.copyOf(allowedHosts);
    }
}
