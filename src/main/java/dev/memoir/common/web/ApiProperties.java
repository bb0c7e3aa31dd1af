package dev.memoir.common.web;

import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * @param maxRequestSize requests with a larger body are refused with 413
 * @param maxArchiveSize the same for a user archive's import ({@code POST /users/{userId}/import}) and a ChatGPT or
 *                       Claude export's ({@code POST /users/{userId}/import/chatgpt|claude}), which stream
 */
@Validated
@ConfigurationProperties("memoir.api")
record ApiProperties(
        @DefaultValue("1MB") @NotNull DataSize maxRequestSize,
        @DefaultValue("8GB") @NotNull DataSize maxArchiveSize) {

    // Bean validation has no constraint for a DataSize: a size under one byte would refuse every request body.
    ApiProperties {
        if (maxRequestSize != null && maxRequestSize.toBytes() < 1) {
            throw new IllegalArgumentException(
                    "memoir.api.max-request-size must be at least 1B, but is " + maxRequestSize);
        }
        if (maxArchiveSize != null && maxArchiveSize.toBytes() < 1) {
            throw new IllegalArgumentException(
                    "memoir.api.max-archive-size must be at least 1B, but is " + maxArchiveSize);
        }
    }
}
