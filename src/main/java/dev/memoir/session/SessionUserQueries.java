package dev.memoir.session;

import java.sql.Timestamp;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Repository;

import dev.memoir.web.UserIdScan;

/** The users a tenant's sessions belong to, read off the sessions index without scanning every session. */
@Repository
class SessionUserQueries {

    private final NamedParameterJdbcTemplate jdbc;

    SessionUserQueries(NamedParameterJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** See {@link UserIdScan}: one index probe per user passed. */
    List<String> userIdsAfter(UUID tenantId, String after, String contains, int limit) {
        return UserIdScan.userIdsAfter(jdbc, "sessions", tenantId, after, contains, limit);
    }

    List<UserSessions> sessionsOf(UUID tenantId, Collection<String> userIds) {
        if (userIds.isEmpty()) {
            return List.of();
        }
        return jdbc.query("""
                select user_id, count(*) as sessions, max(updated_at) as last_active_at,
                       max(last_turn_at) as last_said_at
                from sessions
                where tenant_id = :tenantId and user_id in (:userIds)
                group by user_id""",
                new MapSqlParameterSource().addValue("tenantId", tenantId).addValue("userIds", userIds),
                (rs, row) -> new UserSessions(rs.getString("user_id"), rs.getLong("sessions"),
                        instant(rs.getTimestamp("last_active_at")), instant(rs.getTimestamp("last_said_at"))));
    }

    private static java.time.Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
