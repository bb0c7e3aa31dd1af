package dev.memoir.redaction;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Which secrets are masked ({@code memoir.redaction.*}); both on by default, so that nothing secret is kept unless
 * the operator turns it off.
 *
 * @param secrets API keys, tokens and private keys
 * @param paymentCards payment card numbers (Luhn-checked)
 */
@ConfigurationProperties("memoir.redaction")
record RedactionProperties(
        @DefaultValue("true") boolean secrets,
        @DefaultValue("true") boolean paymentCards) {}
