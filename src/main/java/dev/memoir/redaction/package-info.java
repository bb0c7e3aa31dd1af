/**
 * Secrets in text that reaches Memoir, masked before anything stores, embeds, exports or sends it: API keys and
 * tokens, private keys and payment cards (Luhn-checked) by default (docs/trust.md).
 * <p>{@link dev.memoir.redaction.SecretRedactor} is what other modules use: session masks turns and side messages
 * with it before they are prepared or stored, memory the text a client writes, chat and context the message they
 * search with. A mask keeps the class and a token stable within the tenant ({@code [api-key #1f0c9a3e]}), so that
 * the same secret is recognisably the same, and never the secret.
 */
@ApplicationModule(allowedDependencies = {"common", "tenant"})
package dev.memoir.redaction;

import org.springframework.modulith.ApplicationModule;
