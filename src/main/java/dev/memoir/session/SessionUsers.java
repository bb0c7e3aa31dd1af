package dev.memoir.session;

import java.util.Collection;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.common.jdbc.SqlTimes;
import dev.memoir.common.jdbc.UserIdScan;
import dev.memoir.tenant.TenantId;

/**
 * The users a tenant's sessions belong to, and how many sessions each has, read off the sessions index without
 * scanning every session: what the tenant's list of users needs of sessions.
 */
@Repository
public class SessionUsers {

    private final JdbcClient jdbc;

    SessionUsers(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The tenant's users that have sessions, in the database's order of user ids, after {@code after} (null: from
     * the first), whose id contains {@code contains} ignoring case (null: any); at most {@code limit}. See
     * {@link UserIdScan}: one index probe per user passed.
     */
    @Transactional(readOnly = true)
    public List<String> userIdsAfter(TenantId tenant, String after, String contains, int limit) {
        return UserIdScan.userIdsAfter(jdbc, "sessions", tenant.value(), after, contains, limit);
    }

    /** The session counts and latest activity of these users of the tenant (users without sessions are left out). */
    @Transactional(readOnly = true)
    public List<UserSessions> sessionsOf(TenantId tenant, Collection<String> userIds) {
        UUID tenantId = tenant.value();
        if (userIds.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("""
                select user_id, count(*) as sessions, max(updated_at) as last_active_at,
                       max(last_turn_at) as last_said_at
                from sessions
                where tenant_id = :tenantId and user_id in (:userIds)
                group by user_id""")
                .param("tenantId", tenantId)
                .param("userIds", userIds)
                .query((rs, row) -> new UserSessions(
                        rs.getString("user_id"),
                        rs.getLong("sessions"),
                        SqlTimes.instant(rs, "last_active_at"),
                        SqlTimes.instant(rs, "last_said_at")))
                .list();
    }
}
