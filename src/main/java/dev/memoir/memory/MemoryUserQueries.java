package dev.memoir.memory;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Repository;

import dev.memoir.web.UserIdScan;

/** The users a tenant's memories belong to, read off the memory index without scanning every memory. */
@Repository
class MemoryUserQueries {

    private final NamedParameterJdbcTemplate jdbc;

    MemoryUserQueries(NamedParameterJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** See {@link UserIdScan}: one index probe per user passed. */
    List<String> userIdsAfter(UUID tenantId, String after, String contains, int limit) {
        return UserIdScan.userIdsAfter(jdbc, "memory_records", tenantId, after, contains, limit);
    }

    /** Counted on the index (tenant_id, user_id, created_at desc, id desc), which holds all the answer needs. */
    List<UserMemories> memoriesOf(UUID tenantId, Collection<String> userIds) {
        if (userIds.isEmpty()) {
            return List.of();
        }
        return jdbc.query("""
                select user_id, count(*) as memories, max(created_at) as last_written_at from memory_records
                where tenant_id = :tenantId and user_id in (:userIds)
                group by user_id""",
                new MapSqlParameterSource().addValue("tenantId", tenantId).addValue("userIds", userIds),
                (rs, row) -> new UserMemories(rs.getString("user_id"), rs.getLong("memories"),
                        instant(rs.getTimestamp("last_written_at"))));
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
