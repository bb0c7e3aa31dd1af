package dev.memoir.session.config;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.memoir.common.wire.ClockSkew;

/**
 * Offers {@code memoir.session.clock-skew}, bound here, to the features that check a time a client gave, this one
 * too: every check reads the skew as {@link ClockSkew#latestAllowed()}, none from the settings.
 */
@Configuration(proxyBeanMethods = false)
class ClockSkewConfig {

    @Bean
    ClockSkew clockSkew(SessionProperties properties) {
        return new ClockSkew(properties.clockSkew());
    }
}
