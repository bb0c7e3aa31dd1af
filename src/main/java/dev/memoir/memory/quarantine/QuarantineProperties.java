package dev.memoir.memory.quarantine;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The deployment's poisoning policy ({@code memoir.quarantine.*}), which a tenant may change for itself.
 *
 * @param policy what is done with a memory whose text reads as instructions to an assistant
 * @param policyRefresh how long an instance keeps a tenant's policy before reading it again
 */
@Validated
@ConfigurationProperties("memoir.quarantine")
public record QuarantineProperties(
        @NotNull @DefaultValue("quarantine") PoisoningPolicy policy,
        @NotNull @DefaultValue("10s") Duration policyRefresh) {}
