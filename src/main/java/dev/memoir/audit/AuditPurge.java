package dev.memoir.audit;

import java.time.Instant;
import java.time.OffsetDateTime;
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

import dev.memoir.common.jdbc.SqlTimes;
import dev.memoir.jobs.Jobs;

/**
 * The {@code audit-purge} job: deletes the sealed entries older than {@code memoir.audit.keep-for}, from the front of
 * each tenant's chain only (every entry up to the last old one), and keeps the last deleted entry's seq and hash in
 * {@code audit_chains}, so that the first kept entry is still checked against it and a removed front is found.
 */
@Component
class AuditPurge {

    private static final Logger log = LoggerFactory.getLogger(AuditPurge.class);

    static final String JOB = "audit-purge";

    private record Cut(long seq, byte[] hash) {}

    private final JdbcClient jdbc;
    private final AuditProperties properties;
    private final TransactionTemplate transaction;

    AuditPurge(JdbcClient jdbc, AuditProperties properties, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.properties = properties;
        this.transaction = new TransactionTemplate(transactions);
    }

    int purge() {
        OffsetDateTime before = SqlTimes.timestamptz(Instant.now().minus(properties.keepFor()));
        List<UUID> tenants = jdbc.sql(
                        "select distinct tenant_id from audit_entries where recorded_at < :before and seq is not null")
                .param("before", before)
                .query(UUID.class)
                .list();
        int purged = 0;
        for (UUID tenant : tenants) {
            purged += transaction.execute(status -> purge(tenant, before));
        }
        if (purged > 0) {
            log.info("Purged {} audit entries older than {}", purged, properties.keepFor());
        }
        return purged;
    }

    private int purge(UUID tenant, OffsetDateTime before) {
        // The chain's row first, as the sealer takes it: no entry is sealed behind the cut while it is made.
        jdbc.sql("select 1 from audit_chains where tenant_id = :tenant for update")
                .param("tenant", tenant)
                .query(Integer.class)
                .optional();
        Cut cut = jdbc.sql("""
                        select seq, hash from audit_entries
                        where tenant_id = :tenant and seq = (
                            select max(seq) from audit_entries
                            where tenant_id = :tenant and seq is not null and recorded_at < :before)""")
                .param("tenant", tenant)
                .param("before", before)
                .query((rs, row) -> new Cut(rs.getLong("seq"), rs.getBytes("hash")))
                .optional()
                .orElse(null);
        if (cut == null) {
            return 0;
        }
        int deleted = jdbc.sql("delete from audit_entries where tenant_id = :tenant and seq <= :seq")
                .param("tenant", tenant)
                .param("seq", cut.seq())
                .update();
        jdbc.sql("update audit_chains set pruned_through = :seq, pruned_hash = :hash where tenant_id = :tenant")
                .param("seq", cut.seq())
                .param("hash", cut.hash())
                .param("tenant", tenant)
                .update();
        return deleted;
    }

    @Configuration(proxyBeanMethods = false)
    static class JobType {

        @Bean
        RecurringTask<Void> auditPurgeJob(Jobs jobs, AuditPurge purge, AuditProperties properties) {
            return jobs.recurringTask(JOB, properties.purgeEvery(), purge::purge);
        }
    }
}
