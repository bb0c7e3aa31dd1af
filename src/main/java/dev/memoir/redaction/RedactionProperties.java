package dev.memoir.redaction;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The deployment's redaction policy per class ({@code memoir.redaction.*}), which a tenant may change for itself
 * ({@code PUT /redaction/policy}). Secrets and payment cards are masked by default, so that nothing secret is kept
 * unless a tenant turns it off; IBANs, e-mail addresses and phone numbers are kept unless a tenant or the deployment
 * turns them on.
 *
 * @param phoneRegion the region (ISO 3166 two letters) whose national phone formats are recognised beside the
 *                    international one ({@code +…}); {@code ZZ} for the international one alone
 * @param policyRefresh how long an instance keeps a tenant's policy before reading it again: another instance's
 *                      change applies within it (the instance that takes the change applies it at once)
 */
@Validated
@ConfigurationProperties("memoir.redaction")
record RedactionProperties(
        @NotNull @DefaultValue("mask") RedactionAction apiKey,
        @NotNull @DefaultValue("mask") RedactionAction privateKey,
        @NotNull @DefaultValue("mask") RedactionAction paymentCard,
        @NotNull @DefaultValue("off") RedactionAction iban,
        @NotNull @DefaultValue("off") RedactionAction email,
        @NotNull @DefaultValue("off") RedactionAction phone,

        @NotNull @Pattern(regexp = "[A-Z]{2}") @DefaultValue("US")
        String phoneRegion,

        @NotNull @DefaultValue("10s") Duration policyRefresh) {

    /** The deployment's action for every class. */
    Map<SecretClass, RedactionAction> defaults() {
        Map<SecretClass, RedactionAction> defaults = new EnumMap<>(SecretClass.class);
        defaults.put(SecretClass.API_KEY, apiKey);
        defaults.put(SecretClass.PRIVATE_KEY, privateKey);
        defaults.put(SecretClass.PAYMENT_CARD, paymentCard);
        defaults.put(SecretClass.IBAN, iban);
        defaults.put(SecretClass.EMAIL, email);
        defaults.put(SecretClass.PHONE, phone);
        return defaults;
    }
}
