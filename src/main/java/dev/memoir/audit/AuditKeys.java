package dev.memoir.audit;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The tenant's key that names users in its audit trail: {@code user_hash} is an HMAC of the user id under it, so
 * that the entries outlive the user's erasure without the id, the tenant can still find a user's entries by the id,
 * and one tenant's hashes say nothing about another's users. Made at the tenant's first entry, in a transaction of
 * its own: a key made in a change's transaction that rolled back would be remembered here but lost in the database.
 */
@Component
class AuditKeys {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final JdbcClient jdbc;
    private final TransactionTemplate own;
    private final Map<UUID, byte[]> keys = new ConcurrentHashMap<>();

    AuditKeys(JdbcClient jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.own = new TransactionTemplate(transactions);
        this.own.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    }

    /**
     * The user's name in the tenant's trail; null for no user. Makes the tenant's chain (its key and head) at its
     * first entry either way.
     */
    String userHash(UUID tenant, String userId) {
        byte[] key = key(tenant);
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

    private byte[] key(UUID tenant) {
        byte[] known = keys.get(tenant);
        if (known == null) {
            // Read on the caller's connection: the key exists from the tenant's first entry (its first API key's
            // creation), so only a tenant older than the trail ever needs a transaction of its own, and no thread
            // waits for another's lookup while holding a connection.
            known = jdbc.sql("select user_key from audit_chains where tenant_id = :tenant")
                    .param("tenant", tenant)
                    .query(byte[].class)
                    .optional()
                    .orElseGet(() -> storedKey(tenant));
            keys.putIfAbsent(tenant, known);
        }
        return known;
    }

    // Of two instances making it at once, the first insert wins and both read it back.
    private byte[] storedKey(UUID tenant) {
        byte[] fresh = new byte[32];
        RANDOM.nextBytes(fresh);
        return own.execute(status -> {
            jdbc.sql("insert into audit_chains (tenant_id, user_key) values (:tenant, :key) on conflict do nothing")
                    .param("tenant", tenant)
                    .param("key", fresh)
                    .update();
            return jdbc.sql("select user_key from audit_chains where tenant_id = :tenant")
                    .param("tenant", tenant)
                    .query(byte[].class)
                    .single();
        });
    }
}
