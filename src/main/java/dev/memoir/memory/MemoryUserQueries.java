package dev.memoir.memory;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Repository;

/** The users a tenant's memories belong to, read off the memory index without scanning every memory. */
@Repository
class MemoryUserQueries {

    /**
     * A loose index scan: each step jumps to the next user id on (tenant_id, user_id, ...), so a page costs one
     * index probe per user passed, not one row per memory (a user may have a hundred thousand). The outer limit
     * stops the recursion early.
     */
    private static final String USER_IDS = """
            with recursive ids(user_id) as (
                (select min(user_id) from memory_records where tenant_id = :tenantId %1$s)
                union all
                select (select min(m.user_id) from memory_records m
                        where m.tenant_id = :tenantId and m.user_id > ids.user_id)
                from ids where ids.user_id is not null
            )
            select user_id from ids
            where user_id is not null %2$s
            limit :limit""";

    private final NamedParameterJdbcTemplate jdbc;

    MemoryUserQueries(NamedParameterJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    List<String> userIdsAfter(UUID tenantId, String after, String contains, int limit) {
        MapSqlParameterSource params = new MapSqlParameterSource().addValue("tenantId", tenantId)
                .addValue("after", after).addValue("contains", contains).addValue("limit", limit);
        // Filters are put in only when given, so that each is an index condition in every plan.
        String sql = USER_IDS.formatted(after == null ? "" : "and user_id > :after",
                contains == null ? "" : "and strpos(lower(user_id), lower(:contains)) > 0");
        return jdbc.queryForList(sql, params, String.class);
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
