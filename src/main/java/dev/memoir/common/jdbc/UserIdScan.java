package dev.memoir.common.jdbc;

import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A tenant's distinct user ids in a table indexed on (tenant_id, user_id, ...), by a loose index scan: each step
 * jumps to the next user id, so a page costs one index probe per user passed, not one row per session or memory
 * (a user may have a hundred thousand). The outer limit stops the recursion early. Sessions and memories each
 * hold user ids; the user list merges the two.
 */
public final class UserIdScan {

    private static final String USER_IDS = """
            with recursive ids(user_id) as (
                (select min(user_id) from %1$s where tenant_id = :tenantId %2$s)
                union all
                select (select min(t.user_id) from %1$s t where t.tenant_id = :tenantId and t.user_id > ids.user_id)
                from ids where ids.user_id is not null
            )
            select user_id from ids
            where user_id is not null %3$s
            limit :limit""";

    private UserIdScan() {}

    /**
     * At most {@code limit} user ids of the tenant in {@code table} (a table name of the caller's, never input),
     * in the database's order, after {@code after} (null: from the first), containing {@code contains} ignoring
     * case (null: any).
     */
    public static List<String> userIdsAfter(
            JdbcClient jdbc, String table, UUID tenantId, String after, String contains, int limit) {
        // Filters are put in only when given, so that each is an index condition in every plan.
        String sql = USER_IDS.formatted(
                table,
                after == null ? "" : "and user_id > :after",
                contains == null ? "" : "and strpos(lower(user_id), lower(:contains)) > 0");
        return jdbc.sql(sql)
                .param("tenantId", tenantId)
                .param("after", after)
                .param("contains", contains)
                .param("limit", limit)
                .query(String.class)
                .list();
    }
}
