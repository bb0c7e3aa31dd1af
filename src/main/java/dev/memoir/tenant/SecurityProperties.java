package dev.memoir.tenant;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param bootstrapKey the key that may call the /admin endpoints to create tenants; unset, those endpoints
 *                     answer 401 to everyone
 */
@ConfigurationProperties("memoir.security")
record SecurityProperties(String bootstrapKey) {

    boolean hasBootstrapKey() {
        return bootstrapKey != null && !bootstrapKey.isBlank();
    }
}
