package dev.memoir.webhook;

import java.time.Duration;
import java.util.List;

import jakarta.validation.constraints.NotNull;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Webhooks ({@code memoir.webhooks.*}).
 *
 * @param allowedHosts host names (as the endpoint's URL spells them) that may be delivered to although they are, or
 *                     resolve to, a loopback, private, link-local or metadata address; empty by default
 * @param timeout      how long a delivery may take, connecting and answering together
 */
@Validated
@ConfigurationProperties("memoir.webhooks")
record WebhookProperties(
        List<String> allowedHosts,

        @DefaultValue("5s") @NotNull @DurationMin(millis = 1)
        Duration timeout) {

    WebhookProperties {
        allowedHosts = allowedHosts == null ? List.of() : List.copyOf(allowedHosts);
    }
}
