package dev.memoir.redaction;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

import dev.memoir.common.jdbc.TenantKeys;
import dev.memoir.tenant.TenantId;

/**
 * Applies the tenant's redaction policy to a text before Memoir keeps or sends it: a class to mask becomes
 * {@code [payment-card #5c1e07aa]}, a class to refuse refuses the request (422 {@code sensitive-data-refused}). The
 * token is an HMAC of the value under a key of the tenant's own (kept in {@code redaction_keys}, made at its first
 * secret, in a transaction of its own), so the same card is the same token in every memory of the tenant and another
 * tenant's token says nothing about it.
 */
@Component
public class SecretRedactor {

    private final RedactionPolicies policies;
    private final TenantKeys keys;

    SecretRedactor(RedactionPolicies policies, JdbcClient jdbc, PlatformTransactionManager transactions) {
        this.policies = policies;
        this.keys = new TenantKeys(jdbc, transactions, "redaction_keys", "hmac_key");
    }

    /**
     * The text with what the tenant's policy masks masked; the text itself when it holds none (null stays null).
     *
     * @throws SensitiveDataRefusedException when it holds a class the policy refuses
     */
    public String redact(TenantId tenant, String text) {
        return apply(tenant, text, true);
    }

    /**
     * The model's own text (a reply) with what the policy masks or refuses masked: the user's message was already
     * answered, so a refused class in the answer is masked rather than the answer lost.
     */
    public String redactModelText(TenantId tenant, String text) {
        return apply(tenant, text, false);
    }

    private String apply(TenantId tenant, String text, boolean mayRefuse) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        Map<SecretClass, RedactionAction> policy = policies.effective(tenant.value());
        Set<SecretClass> wanted = EnumSet.noneOf(SecretClass.class);
        policy.forEach((kind, action) -> {
            if (action != RedactionAction.OFF) {
                wanted.add(kind);
            }
        });
        if (wanted.isEmpty()) {
            return text;
        }
        List<SecretPatterns.Finding> found = SecretPatterns.find(text, wanted, policies.phoneRegion());
        if (found.isEmpty()) {
            return text;
        }
        Set<SecretClass> refused = EnumSet.noneOf(SecretClass.class);
        found.stream()
                .map(SecretPatterns.Finding::kind)
                .filter(kind -> policy.get(kind) == RedactionAction.REFUSE)
                .forEach(refused::add);
        if (mayRefuse && !refused.isEmpty()) {
            throw new SensitiveDataRefusedException(refused);
        }
        StringBuilder out = new StringBuilder(text.length());
        int at = 0;
        for (SecretPatterns.Finding finding : found) {
            String secret = text.substring(finding.start(), finding.end());
            out.append(text, at, finding.start())
                    .append('[')
                    .append(finding.kind().wireName())
                    .append(" #")
                    .append(token(tenant, finding.kind(), secret))
                    .append(']');
            at = finding.end();
        }
        return out.append(text, at, text.length()).toString();
    }

    private String token(TenantId tenant, SecretClass kind, String secret) {
        String value = switch (kind) {
            case PAYMENT_CARD -> secret.replaceAll("[ -]", "");
            case IBAN -> secret.replace(" ", "");
            case EMAIL -> secret.toLowerCase(Locale.ROOT);
            case PHONE -> secret.replaceAll("[^+0-9]", "");
            default -> secret;
        };
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(keys.of(tenant.value()), "HmacSHA256"));
            byte[] digest = mac.doFinal((kind.wireName() + ':' + value).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 4);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
