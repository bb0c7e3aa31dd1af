package dev.memoir.web;

import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/** @param maxRequestSize requests with a larger body are refused with 413 */
@Validated
@ConfigurationProperties("memoir.api")
record ApiProperties(@DefaultValue("1MB") @NotNull DataSize maxRequestSize) {

    // Bean validation has no constraint for a DataSize: a size under one byte would refuse every request body.
    ApiProperties {
        if (maxRequestSize != null && maxRequestSize.toBytes() < 1) {
            throw new IllegalArgumentException(
                    "memoir.api.max-request-size must be at least 1B, but is " + maxRequestSize);
        }
    }
}
