package dev.memoir.memory;

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
 * The users a tenant's memories belong to, and how much each has, read off the memory index without scanning every
 * memory: what the tenant's list of users needs of memory.
 */
@Repository
public class MemoryUsers {

    private final JdbcClient jdbc;

    MemoryUsers(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The tenant's users that have memories, in the database's order of user ids, after {@code after} (null: from
     * the first), whose id contains {@code contains} ignoring case (null: any); at most {@code limit}. See
     * {@link UserIdScan}: one index probe per user passed.
     */
    @Transactional(readOnly = true)
    public List<String> userIdsAfter(TenantId tenant, String after, String contains, int limit) {
        return UserIdScan.userIdsAfter(jdbc, "memory_records", tenant.value(), after, contains, limit);
    }

    /**
     * The memory counts of these users of the tenant (users without memories are left out), counted on the index
     * (tenant_id, user_id, created_at desc, id desc), which holds all the answer needs.
     */
    @Transactional(readOnly = true)
    public List<UserMemories> memoriesOf(TenantId tenant, Collection<String> userIds) {
        UUID tenantId = tenant.value();
        if (userIds.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("""
                select user_id, count(*) as memories, max(created_at) as last_written_at from memory_records
                where tenant_id = :tenantId and user_id in (:userIds)
                group by user_id""")
                .param("tenantId", tenantId)
                .param("userIds", userIds)
                .query((rs, row) -> new UserMemories(
                        rs.getString("user_id"), rs.getLong("memories"), SqlTimes.instant(rs, "last_written_at")))
                .list();
    }
}
