package dev.memoir.user;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

import dev.memoir.common.web.Cursor;
import dev.memoir.memory.MemoryUsers;
import dev.memoir.memory.UserMemories;
import dev.memoir.session.SessionUsers;
import dev.memoir.session.UserSessions;
import dev.memoir.tenant.TenantId;

/**
 * A tenant's users. There is no user table: a user exists through their sessions and memories (a user may have
 * memories added directly and no session), so a page merges the user ids of both, in the database's order.
 */
@Service
class UserDirectory {

    private final JdbcClient jdbc;
    private final MemoryUsers memoryUsers;
    private final SessionUsers sessionUsers;

    UserDirectory(JdbcClient jdbc, MemoryUsers memoryUsers, SessionUsers sessionUsers) {
        this.sessionUsers = sessionUsers;
        this.memoryUsers = memoryUsers;
        this.jdbc = jdbc;
    }

    UserList list(TenantId tenant, String contains, String cursor, int limit) {
        Cursor position = Cursor.decode(cursor, "users", 1);
        String after = position == null ? null : position.text(0);
        // The first limit + 1 users of the union are among the first limit + 1 of each side.
        List<String> candidates = new ArrayList<>(sessionUsers.userIdsAfter(tenant, after, contains, limit + 1));
        candidates.addAll(memoryUsers.userIdsAfter(tenant, after, contains, limit + 1));
        Cursor.Page<String> page =
                Cursor.page(inDatabaseOrder(candidates, limit + 1), limit, userId -> Cursor.encode("users", userId));

        Map<String, UserSessions> sessionCounts = sessionUsers.sessionsOf(tenant, page.items()).stream()
                .collect(Collectors.toMap(UserSessions::userId, Function.identity()));
        Map<String, UserMemories> memoryCounts = memoryUsers.memoriesOf(tenant, page.items()).stream()
                .collect(Collectors.toMap(UserMemories::userId, Function.identity()));
        List<UserView> users = page.items().stream()
                .map(userId -> {
                    UserSessions s = sessionCounts.get(userId);
                    UserMemories m = memoryCounts.get(userId);
                    return new UserView(
                            userId,
                            s == null ? 0 : s.sessions(),
                            m == null ? 0 : m.memories(),
                            latest(s == null ? null : s.lastActiveAt(), m == null ? null : m.lastWrittenAt()),
                            s == null ? null : s.lastSaidAt());
                })
                .toList();
        return new UserList(users, page.nextCursor());
    }

    /**
     * Distinct and sorted as PostgreSQL compares user ids (its collation, which the cursor's "after" is compared
     * in), not as Java would: the two orders differ, and a page must end where the next one starts.
     */
    private List<String> inDatabaseOrder(List<String> userIds, int limit) {
        if (userIds.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("select distinct u from unnest(?::text[]) as u order by u limit ?")
                .params(userIds.toArray(String[]::new), limit)
                .query(String.class)
                .list();
    }

    private static Instant latest(Instant a, Instant b) {
        return a == null ? b : b == null || a.isAfter(b) ? a : b;
    }
}
