package dev.memoir.common.jdbc;

import java.security.SecureRandom;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A random key per tenant, kept in one column of a table keyed by {@code tenant_id} (the redaction tokens' key, the
 * audit trail's user-hash key), made at its first use and remembered. It is read on the caller's connection, and made
 * in a transaction of its own only when missing: made in the caller's, which may roll back, it would be remembered
 * here but lost in the database, and another instance would make another. Of two instances making it at once, the
 * first insert wins and both read it back.
 */
public final class TenantKeys {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final JdbcClient jdbc;
    private final TransactionTemplate own;
    private final String select;
    private final String insert;
    private final Map<UUID, byte[]> keys = new ConcurrentHashMap<>();

    /** {@code table} and {@code column} are Memoir's own names, never a client's. */
    public TenantKeys(JdbcClient jdbc, PlatformTransactionManager transactions, String table, String column) {
        this.jdbc = jdbc;
        this.own = new TransactionTemplate(transactions);
        this.own.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        this.select = "select " + column + " from " + table + " where tenant_id = :tenant";
        this.insert =
                "insert into " + table + " (tenant_id, " + column + ") values (:tenant, :key) on conflict do nothing";
    }

    public byte[] of(UUID tenant) {
        byte[] known = keys.get(tenant);
        if (known == null) {
            known = read(tenant).orElseGet(() -> made(tenant));
            keys.putIfAbsent(tenant, known);
        }
        return known;
    }

    private Optional<byte[]> read(UUID tenant) {
        return jdbc.sql(select).param("tenant", tenant).query(byte[].class).optional();
    }

    private byte[] made(UUID tenant) {
        byte[] fresh = new byte[32];
        RANDOM.nextBytes(fresh);
        return own.execute(status -> {
            jdbc.sql(insert).param("tenant", tenant).param("key", fresh).update();
            return read(tenant).orElseThrow();
        });
    }
}
