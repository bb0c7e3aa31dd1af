package dev.memoir.redaction;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.memoir.tenant.TenantId;

/**
 * Masks the secrets in a text before Memoir keeps or sends it: {@code [payment-card #5c1e07aa]}. The token is an
 * HMAC of the secret under a key of the tenant's own (kept in {@code redaction_keys}, made at its first secret), so
 * the same card is the same token in every memory of the tenant and another tenant's token says nothing about it.
 */
@Component
@EnableConfigurationProperties(RedactionProperties.class)
public class SecretRedactor {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final RedactionProperties properties;
    private final JdbcClient jdbc;
    private final Map<UUID, byte[]> keys = new ConcurrentHashMap<>();

    SecretRedactor(RedactionProperties properties, JdbcClient jdbc) {
        this.properties = properties;
        this.jdbc = jdbc;
    }

    /** The text with its secrets masked; the text itself when it holds none (null stays null). */
    public String redact(TenantId tenant, String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        List<SecretPatterns.Finding> found = SecretPatterns.find(text, properties.secrets(), properties.paymentCards());
        if (found.isEmpty()) {
            return text;
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
        String value = kind == SecretClass.PAYMENT_CARD ? secret.replaceAll("[ -]", "") : secret;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key(tenant.value()), "HmacSHA256"));
            byte[] digest = mac.doFinal((kind.wireName() + ':' + value).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 4);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    private byte[] key(UUID tenant) {
        return keys.computeIfAbsent(tenant, this::storedKey);
    }

    // Made once per tenant; of two instances making it at once, the first insert wins and both read it back.
    private byte[] storedKey(UUID tenant) {
        byte[] fresh = new byte[32];
        RANDOM.nextBytes(fresh);
        jdbc.sql("insert into redaction_keys (tenant_id, hmac_key) values (:tenant, :key) on conflict do nothing")
                .param("tenant", tenant)
                .param("key", fresh)
                .update();
        return jdbc.sql("select hmac_key from redaction_keys where tenant_id = :tenant")
                .param("tenant", tenant)
                .query(byte[].class)
                .single();
    }
}
