package dev.memoir.audit;

import java.util.List;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;

import dev.memoir.jobs.Jobs;

/**
 * Chains the committed entries of a tenant's trail, in the order it finds them: each gets the next {@code seq} and
 * {@code hash = sha256(prev_hash || seq || content_hash)}. Entries are written unchained in their change's
 * transaction, so that no change waits for another tenant's or its own tenant's other changes to commit; one sealer
 * per tenant at a time, by the lock on the tenant's {@code audit_chains} row. The {@code audit-seal} job seals every
 * tenant's every {@code memoir.audit.seal-every}, and every read of a trail seals its tenant's first.
 */
@Component
class AuditSealer {

    private static final Logger log = LoggerFactory.getLogger(AuditSealer.class);

    static final String JOB = "audit-seal";
    private static final int BATCH = 1_000;

    private record Unsealed(UUID id, byte[] contentHash) {}

    private record Head(long seq, byte[] hash) {}

    private final JdbcClient jdbc;
    private final TransactionTemplate transaction;

    AuditSealer(JdbcClient jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.transaction = new TransactionTemplate(transactions);
    }

    /** Seals every tenant's committed entries. */
    void sealAll() {
        List<UUID> tenants = jdbc.sql("select distinct tenant_id from audit_entries where seq is null")
                .query(UUID.class)
                .list();
        int sealed = 0;
        for (UUID tenant : tenants) {
            sealed += seal(tenant);
        }
        if (sealed > 0) {
            log.debug("Sealed {} audit entries of {} tenants", sealed, tenants.size());
        }
    }

    /** Seals the tenant's committed entries; answers how many. */
    int seal(UUID tenant) {
        int sealed = 0;
        while (true) {
            Integer batch = transaction.execute(status -> sealBatch(tenant));
            sealed += batch;
            if (batch < BATCH) {
                return sealed;
            }
        }
    }

    private int sealBatch(UUID tenant) {
        Head head = jdbc.sql("select last_seq, last_hash from audit_chains where tenant_id = :tenant for update")
                .param("tenant", tenant)
                .query((rs, row) -> new Head(rs.getLong("last_seq"), rs.getBytes("last_hash")))
                .optional()
                .orElse(null);
        if (head == null) {
            return 0;
        }
        List<Unsealed> unsealed = jdbc.sql("""
                        select id, content_hash from audit_entries
                        where tenant_id = :tenant and seq is null
                        order by recorded_at, id
                        limit :batch""")
                .param("tenant", tenant)
                .param("batch", BATCH)
                .query((rs, row) -> new Unsealed(rs.getObject("id", UUID.class), rs.getBytes("content_hash")))
                .list();
        long seq = head.seq();
        byte[] previous = head.hash();
        for (Unsealed entry : unsealed) {
            seq++;
            byte[] hash = AuditHashes.link(previous, seq, entry.contentHash());
            jdbc.sql("""
                            update audit_entries set seq = :seq, prev_hash = cast(:prev as bytea), hash = :hash
                            where tenant_id = :tenant and id = :id""")
                    .param("seq", seq)
                    .param("prev", previous)
                    .param("hash", hash)
                    .param("tenant", tenant)
                    .param("id", entry.id())
                    .update();
            previous = hash;
        }
        if (!unsealed.isEmpty()) {
            jdbc.sql("update audit_chains set last_seq = :seq, last_hash = :hash where tenant_id = :tenant")
                    .param("seq", seq)
                    .param("hash", previous)
                    .param("tenant", tenant)
                    .update();
        }
        return unsealed.size();
    }

    @Configuration(proxyBeanMethods = false)
    static class JobType {

        @Bean
        RecurringTask<Void> auditSealJob(Jobs jobs, AuditSealer sealer, AuditProperties properties) {
            return jobs.recurringTask(JOB, properties.sealEvery(), sealer::sealAll);
        }
    }
}
