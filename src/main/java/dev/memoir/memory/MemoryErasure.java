package dev.memoir.memory;

import java.util.List;
import java.util.UUID;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.common.jdbc.AdvisoryLocks;
import dev.memoir.memory.api.MemoryEvent;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.store.MemoryRecordRepository;
import dev.memoir.tenant.TenantId;

/** Deleting memory for good because its user or session is erased: what the erasure feature needs of memory. */
@Component
public class MemoryErasure {

    private final MemoryRecordRepository records;
    private final AdvisoryLocks locks;
    private final ApplicationEventPublisher events;
    private final JdbcClient jdbc;

    MemoryErasure(
            MemoryRecordRepository records, AdvisoryLocks locks, ApplicationEventPublisher events, JdbcClient jdbc) {
        this.events = events;
        this.jdbc = jdbc;
        this.records = records;
        this.locks = locks;
    }

    /**
     * Holds the user exclusively until the transaction ends: the first step of erasing the user. Every writer of the
     * user (an import, a chat, a memory job, a client's add) takes the same lock first, shared or exclusively, so
     * the erasure waits for those in flight and those that come later wait for it, then find nothing.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void holdUser(TenantId tenant, String userId) {
        // An export's import holds the user across its transactions (EXPORT_IMPORT, shared): wait for all of it first.
        locks.lock(AdvisoryLocks.Space.EXPORT_IMPORT, AdvisoryLocks.userKey(tenant.value(), userId));
        locks.lock(AdvisoryLocks.Space.USER_MEMORY, AdvisoryLocks.userKey(tenant.value(), userId));
    }

    /**
     * Deletes every memory of a user; part of erasing the user. Waits for a client's adds in flight, which hold the
     * user shared, so that they are erased too.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public int deleteAllForUser(TenantId tenant, String userId) {
        locks.lock(AdvisoryLocks.Space.USER_MEMORY, AdvisoryLocks.userKey(tenant.value(), userId));
        int deleted = records.deleteAllForUser(tenant.value(), userId);
        events.publishEvent(new UserMemoryErased(tenant, userId));
        return deleted;
    }

    /**
     * Deletes the memories written from one session alone. Topic memories and the recursive summary combine several
     * sessions, and corrections learned from feedback hold for every session: they stay, whichever session last
     * changed them; erasing the user removes them.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public int deleteAllOfSession(TenantId tenant, String userId, UUID sessionId) {
        // Naming the session's user reads only that user's partition (no index leads with the session). Each deleted
        // memory is told to the listeners of MemoryEvent (webhooks) in this transaction, as any other deletion is.
        List<MemoryEvent> deleted = jdbc.sql("""
                delete from memory_records where tenant_id = ? and user_id = ? and session_id = ?
                    and kind = any(?)
                returning id, kind""")
                .params(
                        tenant.value(),
                        userId,
                        sessionId,
                        MemoryKind.WRITTEN_FROM_ONE_SESSION.stream()
                                .map(MemoryKind::wireName)
                                .toArray(String[]::new))
                .query((rs, n) -> new MemoryEvent(
                        MemoryEvent.Type.DELETED,
                        tenant,
                        userId,
                        rs.getObject("id", UUID.class),
                        MemoryKind.fromWireName(rs.getString("kind")),
                        "erasure",
                        null))
                .list();
        deleted.forEach(events::publishEvent);
        return deleted.size();
    }
}
