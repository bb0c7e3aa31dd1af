package dev.memoir.tenant;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * What one tenant may have in flight at once ({@code memoir.tenant-limits.*}), so that one tenant's burst of
 * imports, chats and feedback cannot take the machine from the others.
 *
 * @param concurrentWrites POST, PUT, PATCH and DELETE requests of one tenant in progress at once (each may embed a
 *                         megabyte of turns or call the model); one more is answered 429 at once
 * @param retryAfter       what the 429's {@code Retry-After} header suggests
 */
@Validated
@ConfigurationProperties("memoir.tenant-limits")
record TenantLimits(@DefaultValue("8") @Min(1) int concurrentWrites, @DefaultValue("2s") @NotNull @DurationMin(millis = 1) Duration retryAfter) {
}
