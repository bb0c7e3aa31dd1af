package dev.memoir.audit;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import dev.memoir.common.jdbc.SqlTimes;

/**
 * Verifies a tenant's chain from its first kept entry to its head: each entry's content hash recomputed from its
 * fields, each link from the one before, no seq missing, and the last entry equal to the head in
 * {@code audit_chains}. An edited field, an edited hash, a removed entry and a removed last entry are each found.
 * What it cannot find: the whole chain rewritten from some entry on, head included, by someone who can write the
 * database; the head hash it answers, kept outside Memoir, is what shows that.
 */
@Component
class AuditChainCheck {

    private static final int PAGE = 2_000;
    private static final HexFormat HEX = HexFormat.of();

    private record Chain(long prunedThrough, byte[] prunedHash, long lastSeq, byte[] lastHash) {}

    private record Row(
            UUID id,
            Instant recordedAt,
            String actor,
            String action,
            String userHash,
            List<UUID> subjects,
            String details,
            byte[] contentHash,
            long seq,
            byte[] prevHash,
            byte[] hash) {}

    private final JdbcClient jdbc;
    private final TransactionTemplate snapshot;

    AuditChainCheck(JdbcClient jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.snapshot = new TransactionTemplate(transactions);
        this.snapshot.setReadOnly(true);
        this.snapshot.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
    }

    /**
     * The check, on one snapshot of the chain: its head and every page as one moment saw them, so a seal or a purge
     * that commits meanwhile (on any instance) is not taken for tampering.
     */
    AuditVerification verify(UUID tenant) {
        return snapshot.execute(status -> verifyInSnapshot(tenant));
    }

    private AuditVerification verifyInSnapshot(UUID tenant) {
        Chain chain = jdbc.sql("""
                        select pruned_through, pruned_hash, last_seq, last_hash from audit_chains
                        where tenant_id = :tenant""")
                .param("tenant", tenant)
                .query((rs, row) -> new Chain(
                        rs.getLong("pruned_through"),
                        rs.getBytes("pruned_hash"),
                        rs.getLong("last_seq"),
                        rs.getBytes("last_hash")))
                .optional()
                .orElse(new Chain(0, null, 0, null));
        long expected = chain.prunedThrough() + 1;
        byte[] previous = chain.prunedHash();
        long checked = 0;
        Long first = null;
        while (true) {
            List<Row> rows = page(tenant, expected - 1);
            for (Row row : rows) {
                if (first == null) {
                    first = row.seq();
                }
                String fault = fault(tenant, row, expected, previous);
                if (fault != null) {
                    return broken(checked, first, chain, row.seq(), row.id(), fault);
                }
                checked++;
                previous = row.hash();
                expected++;
            }
            if (rows.size() < PAGE) {
                break;
            }
        }
        if (expected - 1 != chain.lastSeq() || !Arrays.equals(previous, chain.lastHash())) {
            return broken(checked, first, chain, expected - 1, null, "head-mismatch");
        }
        return new AuditVerification(
                true,
                checked,
                first,
                checked == 0 ? null : chain.lastSeq(),
                chain.lastHash() == null ? null : HEX.formatHex(chain.lastHash()),
                null);
    }

    private static String fault(UUID tenant, Row row, long expected, byte[] previous) {
        if (row.seq() != expected) {
            return "seq-gap";
        }
        byte[] content = AuditHashes.content(
                tenant,
                row.id(),
                row.recordedAt(),
                row.actor(),
                row.action(),
                row.userHash(),
                row.subjects(),
                row.details());
        if (!Arrays.equals(content, row.contentHash())) {
            return "content-changed";
        }
        boolean linked = Arrays.equals(previous, row.prevHash())
                && Arrays.equals(AuditHashes.link(previous, row.seq(), content), row.hash());
        return linked ? null : "link-broken";
    }

    private static AuditVerification broken(
            long checked, Long first, Chain chain, long seq, UUID entryId, String reason) {
        return new AuditVerification(
                false,
                checked,
                first,
                chain.lastSeq() == 0 ? null : chain.lastSeq(),
                chain.lastHash() == null ? null : HEX.formatHex(chain.lastHash()),
                new AuditVerification.Fault(seq, entryId, reason));
    }

    private List<Row> page(UUID tenant, long afterSeq) {
        return jdbc.sql("""
                        select id, recorded_at, actor, action, user_hash, subjects, details, content_hash, seq,
                               prev_hash, hash
                        from audit_entries
                        where tenant_id = :tenant and seq > :after
                        order by seq
                        limit :page""")
                .param("tenant", tenant)
                .param("after", afterSeq)
                .param("page", PAGE)
                .query((rs, n) -> new Row(
                        rs.getObject("id", UUID.class),
                        SqlTimes.instant(rs, "recorded_at"),
                        rs.getString("actor"),
                        rs.getString("action"),
                        rs.getString("user_hash"),
                        uuids(rs),
                        rs.getString("details"),
                        rs.getBytes("content_hash"),
                        rs.getLong("seq"),
                        rs.getBytes("prev_hash"),
                        rs.getBytes("hash")))
                .list();
    }

    static List<UUID> uuids(ResultSet rs) throws SQLException {
        Array array = rs.getArray("subjects");
        return array == null ? List.of() : List.of((UUID[]) array.getArray());
    }
}
