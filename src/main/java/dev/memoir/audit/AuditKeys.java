package dev.memoir.audit;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

import dev.memoir.common.jdbc.TenantKeys;

/**
 * The tenant's key that names users in its audit trail: {@code user_hash} is an HMAC of the user id under it, so
 * that the entries outlive the user's erasure without the id, the tenant can still find a user's entries by the id,
 * and one tenant's hashes say nothing about another's users. Made at the tenant's first entry, in a transaction of
 * its own ({@link TenantKeys}).
 */
@Component
class AuditKeys {

    private final TenantKeys keys;

    AuditKeys(JdbcClient jdbc, PlatformTransactionManager transactions) {
        this.keys = new TenantKeys(jdbc, transactions, "audit_chains", "user_key");
    }

    /**
     * The user's name in the tenant's trail; null for no user. Makes the tenant's chain (its key and head) at its
     * first entry either way.
     */
    String userHash(UUID tenant, String userId) {
        byte[] key = keys.of(tenant);
        if (userId == null) {
            return null;
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(userId.getBytes(StandardCharsets.UTF_8)), 0, 16);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
