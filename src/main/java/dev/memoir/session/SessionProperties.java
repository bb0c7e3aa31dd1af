package dev.memoir.session;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param clockSkew how far in the future an imported turn's {@code occurredAt} may lie: clients' clocks differ
 *                  a little from the server's
 */
@Validated
@ConfigurationProperties("memoir.session")
record SessionProperties(@DefaultValue("5m") Duration clockSkew) {
}
