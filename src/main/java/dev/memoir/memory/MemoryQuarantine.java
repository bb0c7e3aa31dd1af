package dev.memoir.memory;

import java.sql.Timestamp;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.common.audit.Audited;
import dev.memoir.common.web.ConflictException;
import dev.memoir.common.web.Cursor;
import dev.memoir.common.web.NotFoundException;
import dev.memoir.memory.api.MemoryEvent;
import dev.memoir.memory.api.MemoryScreening;
import dev.memoir.memory.api.MemoryView;
import dev.memoir.memory.quarantine.MemoryScreen;
import dev.memoir.memory.quarantine.PoisoningPolicies;
import dev.memoir.memory.quarantine.PoisoningPolicy;
import dev.memoir.memory.store.MemoryRecord;
import dev.memoir.memory.store.MemoryRecordRepository;
import dev.memoir.memory.supersession.UnjudgedFactAdded;
import dev.memoir.tenant.TenantId;

/**
 * Memories held back because their text reads as instructions to an assistant (docs/trust.md): listed for a client or
 * the operator to look at, and released to be read; and the tenant's poisoning policy. What a quarantined memory is
 * kept out of is decided where memory is read (the search's filters), not here.
 */
@Service
public class MemoryQuarantine {

    private final JdbcClient jdbc;
    private final MemoryRecordRepository records;
    private final PoisoningPolicies policies;
    private final ApplicationEventPublisher events;
    private final MemoryScreen screen;

    MemoryQuarantine(
            JdbcClient jdbc,
            MemoryRecordRepository records,
            PoisoningPolicies policies,
            ApplicationEventPublisher events,
            MemoryScreen screen) {
        this.screen = screen;
        this.jdbc = jdbc;
        this.records = records;
        this.policies = policies;
        this.events = events;
    }

    /** The tenant's (or one user's) quarantined memories, oldest first, a page at a time. */
    @Transactional(readOnly = true)
    public MemoryList quarantined(TenantId tenant, String userId, String cursorToken, int limit) {
        Cursor after = Cursor.decode(cursorToken, "quarantine", 2);
        List<UUID> ids = jdbc.sql("""
                        select id from memory_records
                        where tenant_id = :tenant and screening = 'quarantined'
                          and (cast(:userId as text) is null or user_id = :userId)
                          and (cast(:afterTime as timestamptz) is null
                               or (created_at, id) > (cast(:afterTime as timestamptz), cast(:afterId as uuid)))
                        order by created_at, id
                        limit :limit""")
                .param("tenant", tenant.value())
                .param("userId", userId)
                .param("afterTime", after == null ? null : Timestamp.from(after.instant(0)))
                .param("afterId", after == null ? null : after.uuid(1))
                .param("limit", limit + 1)
                .query(UUID.class)
                .list();
        List<MemoryView> fetched = records.findByTenantIdAndIdIn(tenant.value(), ids).stream()
                .map(record -> record.view(List.of()))
                .sorted(Comparator.comparing(MemoryView::createdAt).thenComparing(MemoryView::id))
                .toList();
        Cursor.Page<MemoryView> page =
                Cursor.page(fetched, limit, m -> Cursor.encode("quarantine", m.createdAt(), m.id()));
        return new MemoryList(page.items(), page.nextCursor());
    }

    /**
     * Those of the turns whose history record is quarantined: a reply that shows a turn's neighbours leaves them out,
     * as the search leaves their records out. One query on the partial index of the user's quarantined memories.
     */
    @Transactional(readOnly = true)
    public Set<UUID> heldBackTurns(TenantId tenant, String userId, Collection<UUID> turnIds) {
        return screen.quarantinedTurns(tenant.value(), userId, turnIds);
    }

    /** Lets a quarantined memory be read from now on; 404 when unknown, 409 when it is not quarantined. */
    @Transactional
    public MemoryView release(TenantId tenant, UUID id) {
        MemoryRecord record =
                records.lockByIdAndTenantId(id, tenant.value()).orElseThrow(() -> new NotFoundException("Memory", id));
        MemoryScreening screening = record.getScreening();
        if (screening == null || !screening.state().equals(MemoryScreening.QUARANTINED)) {
            throw new ConflictException(
                    "memory-not-quarantined",
                    "Memory " + id + " is not quarantined" + (screening == null ? "" : " (" + screening.state() + ")"));
        }
        record.release();
        events.publishEvent(record.event(MemoryEvent.Type.RELEASED, String.join(",", screening.signs())));
        if (record.getKind().factBearing() && record.getKind().addable()) {
            // Judged now what it supersedes, as when it was added: the judgement skipped it while it was held.
            events.publishEvent(new UnjudgedFactAdded(tenant, id));
        }
        return record.view(List.of());
    }

    /** The policy that applies to the tenant, and whether it chose it. */
    public PolicyView policy(TenantId tenant) {
        return policies.own(tenant.value())
                .map(own -> new PolicyView(own, "tenant"))
                .orElseGet(() -> new PolicyView(policies.deploymentDefault(), "default"));
    }

    /** Sets the tenant's own policy, or (null) gives it back to the deployment's. */
    @Transactional
    public PolicyView setPolicy(TenantId tenant, PoisoningPolicy policy) {
        policies.set(tenant.value(), policy);
        events.publishEvent(Audited.of(
                tenant.value(),
                "quarantine.policy-set",
                null,
                List.of(),
                Map.of("policy", policy == null ? "default" : policy.wireName())));
        return policy(tenant);
    }

    /** A tenant's poisoning policy and where it comes from ({@code tenant} or {@code default}). */
    public record PolicyView(PoisoningPolicy policy, String source) {}
}
