package dev.memoir.audit;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.memoir.common.jdbc.SqlTimes;
import dev.memoir.common.web.Cursor;

/** Reads a tenant's trail, by time and by user, sealing its committed entries first. */
@Component
class AuditEntries {

    private static final HexFormat HEX = HexFormat.of();

    private final JdbcClient jdbc;
    private final AuditSealer sealer;
    private final AuditKeys keys;

    AuditEntries(JdbcClient jdbc, AuditSealer sealer, AuditKeys keys) {
        this.jdbc = jdbc;
        this.sealer = sealer;
        this.keys = keys;
    }

    /** What to list: each null means any. */
    record Filter(String userId, String action, Instant from, Instant to) {}

    /**
     * A page of the sealed entries in the order of the chain. Paged by seq, not by time: an entry written early in a
     * long transaction commits, and is sealed, after later ones, and a client following nextCursor still gets it.
     */
    AuditPage list(UUID tenant, Filter filter, String cursorToken, int limit) {
        sealer.seal(tenant);
        Cursor after = Cursor.decode(cursorToken, "audit", 1);
        List<AuditEntryView> fetched = jdbc.sql("""
                        select * from audit_entries
                        where tenant_id = :tenant and seq > :afterSeq
                          and (cast(:userHash as text) is null or user_hash = :userHash)
                          and (cast(:action as text) is null or action = :action)
                          and (cast(:from as timestamptz) is null or recorded_at >= :from)
                          and (cast(:to as timestamptz) is null or recorded_at < :to)
                        order by seq
                        limit :limit""")
                .param("tenant", tenant)
                .param("afterSeq", after == null ? 0L : after.longValue(0))
                .param("userHash", filter.userId() == null ? null : keys.userHash(tenant, filter.userId()))
                .param("action", filter.action())
                .param("from", SqlTimes.timestamptz(filter.from()))
                .param("to", SqlTimes.timestamptz(filter.to()))
                .param("limit", limit + 1)
                .query((rs, row) -> view(rs))
                .list();
        Cursor.Page<AuditEntryView> page = Cursor.page(fetched, limit, e -> Cursor.encode("audit", e.seq()));
        return new AuditPage(page.items(), page.nextCursor());
    }

    Optional<AuditEntryView> entry(UUID tenant, UUID id) {
        sealer.seal(tenant);
        return jdbc.sql("select * from audit_entries where tenant_id = :tenant and id = :id")
                .param("tenant", tenant)
                .param("id", id)
                .query((rs, row) -> view(rs))
                .optional();
    }

    private static AuditEntryView view(ResultSet rs) throws SQLException {
        Long seq = rs.getObject("seq", Long.class);
        return new AuditEntryView(
                rs.getObject("id", UUID.class),
                seq,
                SqlTimes.instant(rs, "recorded_at"),
                rs.getString("actor"),
                rs.getString("action"),
                rs.getString("user_hash"),
                AuditChainCheck.uuids(rs),
                AuditLog.DETAILS.readTree(rs.getString("details")),
                hex(rs.getBytes("content_hash")),
                hex(rs.getBytes("prev_hash")),
                hex(rs.getBytes("hash")));
    }

    private static String hex(byte[] bytes) {
        return bytes == null ? null : HEX.formatHex(bytes);
    }
}
