package dev.memoir.tenant;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How writing requests share this instance among tenants ({@code memoir.tenant-limits.*}), so that one tenant's
 * burst of imports, chats and feedback cannot take the machine from the others, and a tenant alone can use all of
 * it ({@link FairWriteQueue}).
 *
 * @param concurrentWrites POST, PUT, PATCH and DELETE requests this instance works on at once, of all tenants (each
 *                         may embed a megabyte of turns or call the model); more wait their turn, tenants served
 *                         fairly
 * @param tenantWrites     the most of them one tenant runs at once, so that the rest stay free for other tenants
 *                         however long one tenant's requests take (streamed replies, slow uploads): no request is cut
 *                         short to make room, so a place held is held until its request ends
 * @param maxWait          how long a writing request waits for its turn before it is refused with 429: below the
 *                         timeout clients commonly give up at, since a request that got its turn after its client
 *                         left would still run
 * @param maxWaiting       writing requests of one tenant that may wait at once; one more is refused with 429 at once
 * @param retryAfter       what a 429's {@code Retry-After} header suggests
 */
@Validated
@ConfigurationProperties("memoir.tenant-limits")
record TenantLimits(
        @DefaultValue("32") @Min(1) int concurrentWrites,
        @DefaultValue("24") @Min(1) int tenantWrites,

        @DefaultValue("20s") @NotNull @DurationMin(millis = 1)
        Duration maxWait,

        @DefaultValue("200") @Min(0) int maxWaiting,

        @DefaultValue("2s") @NotNull @DurationMin(millis = 1)
        Duration retryAfter) {}
