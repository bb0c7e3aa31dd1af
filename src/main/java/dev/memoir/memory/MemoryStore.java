package dev.memoir.memory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.common.jdbc.AdvisoryLocks;
import dev.memoir.common.web.NotFoundException;
import dev.memoir.memory.api.DedupKey;
import dev.memoir.memory.api.MemoryEvent;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.MemoryOrigin;
import dev.memoir.memory.api.MemoryView;
import dev.memoir.memory.api.NewMemory;
import dev.memoir.memory.api.Trust;
import dev.memoir.memory.revision.MemoryRevision;
import dev.memoir.memory.revision.MemoryRevisions;
import dev.memoir.memory.store.MemoryRecord;
import dev.memoir.memory.store.MemoryRecordRepository;
import dev.memoir.memory.store.NewRecords;
import dev.memoir.memory.store.TurnTrust;
import dev.memoir.memory.supersession.SupersessionRules;
import dev.memoir.memory.supersession.Supersessions;
import dev.memoir.memory.supersession.UnjudgedFactAdded;
import dev.memoir.redaction.SecretRedactor;
import dev.memoir.tenant.TenantId;

/**
 * Stores memories and their versions: what Memoir's pipelines write, revise, merge and supersede, and what a
 * client adds, reads, changes and deletes directly. Searching is {@link MemorySearches}'; the counts behind the list
 * of users, erasure and purging have facades of their own ({@link MemoryUsers}, {@link MemoryErasure},
 * {@link MemoryPurge}).
 */
@Service
public class MemoryStore {

    private final MemoryRecordRepository records;
    private final ClientMemoryValues clientValues;
    private final NewRecords newRecords;
    private final Supersessions supersessions;
    private final SupersessionRules supersessionRules;
    private final MemoryRevisions revisions;
    private final AdvisoryLocks locks;
    private final ApplicationEventPublisher events;
    private final SecretRedactor redactor;
    private final TurnTrust turnTrust;

    MemoryStore(
            MemoryRecordRepository records,
            NewRecords newRecords,
            ClientMemoryValues clientValues,
            Supersessions supersessions,
            SupersessionRules supersessionRules,
            MemoryRevisions revisions,
            AdvisoryLocks locks,
            ApplicationEventPublisher events,
            SecretRedactor redactor,
            TurnTrust turnTrust) {
        this.records = records;
        this.turnTrust = turnTrust;
        this.clientValues = clientValues;
        this.newRecords = newRecords;
        this.supersessions = supersessions;
        this.supersessionRules = supersessionRules;
        this.revisions = revisions;
        this.locks = locks;
        this.events = events;
        this.redactor = redactor;
    }

    /** Writes a memory, or returns the one already written under the same dedup key. */
    @Transactional
    public MemoryView write(NewMemory memory) {
        return store(memory).memory();
    }

    /**
     * A memory a client adds directly (only kinds that are {@link MemoryKind#addable()}), embedded at once so that
     * search finds it as soon as this returns. The same text added again for the same user is not stored twice:
     * the memory that has it is returned, not created. An erasure of the user that starts meanwhile waits for
     * this add and erases it too.
     *
     * @param kind       null for {@link MemoryKind#FACT}; a kind that is not addable is refused, 400 naming kind
     * @param occurredAt when what it states was said or became true; null for now; in the future beyond the
     *                   allowed clock skew, 400 naming occurredAt
     * @param supersedes the user's live fact-bearing memories the new one supersedes; null or empty for none (400
     *                   naming supersedes for any other memory)
     * @param expiresAt  when the memory expires; null for never (400 naming expiresAt if not in the future)
     * @param origin     who tells it: {@link MemoryOrigin#client()} or {@link MemoryOrigin#mcp()}
     */
    @Transactional
    public AddedMemory add(
            TenantId tenant,
            String userId,
            MemoryKind kind,
            String text,
            Instant occurredAt,
            List<UUID> supersedes,
            Instant expiresAt,
            MemoryOrigin origin) {
        clientValues.requireAddable(kind, occurredAt, expiresAt);
        text = redactor.redact(tenant, text);
        kind = kind == null ? MemoryKind.FACT : kind;
        locks.lockShared(AdvisoryLocks.Space.USER_MEMORY, AdvisoryLocks.userKey(tenant.value(), userId));
        DedupKey dedupKey = DedupKey.added(kind, tenant, userId, text);
        locks.lock(AdvisoryLocks.Space.DEDUP_KEY, dedupKey.value());
        AddedMemory added = store(new NewMemory(tenant, userId, kind, text, null, List.of(), dedupKey)
                .occurred(occurredAt, occurredAt)
                .from(origin));
        boolean changed = false;
        MemoryRecord record = null;
        if (expiresAt != null || (supersedes != null && !supersedes.isEmpty())) {
            record = records.lockByIdAndTenantId(added.memory().id(), tenant.value())
                    .orElseThrow();
        }
        if (expiresAt != null) {
            record.expireAt(expiresAt);
            changed = true;
        }
        if (supersedes != null && !supersedes.isEmpty()) {
            // The same fact added again names more that it supersedes: added to what it superseded before.
            List<UUID> wanted = new ArrayList<>(
                    added.created() ? List.of() : supersessions.supersededBy(tenant.value(), userId, record.getId()));
            wanted.addAll(supersedes);
            supersessionRules.replace(record, wanted);
            changed = true;
        } else if (supersedes == null && added.created()) {
            // Published in this transaction, whose listener queues the judgement: it exists exactly when the fact does.
            events.publishEvent(new UnjudgedFactAdded(tenant, added.memory().id()));
        }
        return changed ? new AddedMemory(view(record), added.created()) : added;
    }

    /**
     * Marks memories of the user superseded by a newer memory that Memoir wrote (a writer's supersession step
     * judged that it updates or contradicts them). Those no longer live, or no longer there, are left as they are.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public int supersede(TenantId tenant, String userId, UUID by, Collection<UUID> superseded) {
        records.flush();
        return supersessions.supersedeIfLive(tenant.value(), userId, by, superseded);
    }

    private AddedMemory store(NewMemory memory) {
        NewRecords.Kept kept = newRecords.saveUnlessKept(memory);
        return new AddedMemory(kept.created() ? kept.record().view(List.of()) : view(kept.record()), kept.created());
    }

    /**
     * Writes memories Memoir found in dialogue that a later one may supersede (standing instructions), each unless one
     * is already there under its dedup key, in the caller's transaction. Each new one is judged against the user's live
     * fact-bearing memories by the fact-supersession job, as a client's fact added without {@code supersedes} is: a
     * later instruction that contradicts or restates an earlier one supersedes it.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void writeJudged(List<NewMemory> memories) {
        for (NewMemory memory : memories) {
            AddedMemory added = store(memory);
            if (added.created()) {
                events.publishEvent(
                        new UnjudgedFactAdded(memory.tenant(), added.memory().id()));
            }
        }
    }

    /** Writes several memories in the caller's transaction (imported or chatted turns). */
    @Transactional(propagation = Propagation.MANDATORY)
    public void writeAll(List<NewMemory> memories) {
        newRecords.save(memories);
    }

    @Transactional(readOnly = true)
    public MemoryView get(TenantId tenant, UUID id) {
        return view(find(tenant, id));
    }

    /**
     * A client's change of a memory: a new text makes a new version (re-embedded) whose source is the editor
     * ({@link MemoryOrigin#client()} or {@link MemoryOrigin#mcp()}); {@code supersedes} replaces the set of memories
     * it supersedes (empty: none); the expiry is set or cleared. Parts left null stay as they are.
     */
    @Transactional
    public MemoryView update(TenantId tenant, UUID id, MemoryChange change, MemoryOrigin editor) {
        if (change.supersedes() != null) {
            supersessionRules.lockForChange(tenant.value(), id, change.supersedes());
        }
        MemoryRecord record = records.lockByIdAndTenantId(id, tenant.value())
                .filter(MemoryRecord::unexpired)
                .orElseThrow(() -> new NotFoundException("Memory", id));
        String text = redactor.redact(tenant, change.text());
        if (text != null && !text.equals(record.getText())) {
            revisions.revise(record, text, null, "edit");
            record.recordOrigin(editor);
        }
        if (change.expiresAt() != null) {
            ClientMemoryValues.requireFuture(change.expiresAt());
            record.expireAt(change.expiresAt());
        } else if (change.neverExpires()) {
            record.expireAt(null);
        }
        if (change.supersedes() != null) {
            supersessionRules.replace(record, change.supersedes());
        }
        return view(record);
    }

    /**
     * Replaces a memory's text with a new version (re-embedded) and keeps the old text in its revision trail.
     *
     * @param sessionId the session whose processing caused the change, if any
     * @param reason    why, for the trail: "edit", "recursive-summary", "merge", ...
     */
    @Transactional
    public MemoryView revise(TenantId tenant, UUID id, String text, UUID sessionId, String reason) {
        return revise(lock(tenant, id), text, sessionId, reason);
    }

    /**
     * Like {@link #revise(TenantId, UUID, String, UUID, String)}, for a new text made from {@code expectedText}: if the memory
     * no longer says that (it changed since it was read), nothing is written and 409 {@code memory-changed} tells
     * the caller to make its change again from the new text.
     */
    @Transactional
    public MemoryView reviseIfUnchanged(
            TenantId tenant, UUID id, String expectedText, String text, UUID sessionId, String reason) {
        MemoryRecord record = lock(tenant, id);
        if (!record.getText().equals(expectedText)) {
            throw new MemoryChangedException(id);
        }
        return revise(record, text, sessionId, reason);
    }

    private MemoryView revise(MemoryRecord record, String text, UUID sessionId, String reason) {
        revisions.revise(record, text, sessionId, reason);
        return view(record);
    }

    /**
     * Merges a new summary into an existing memory (RMM's Merge): the merged text becomes a new version, the
     * provenance gains the absorbed summary's turns, and the revision keeps what was absorbed. The model merged
     * {@code mergedFrom}, the text it was shown: if the memory has changed since (another session's merge), the
     * merge fails rather than overwrite that change, and the job that asked for it is retried on the new text.
     */
    @Transactional
    public MemoryView merge(
            TenantId tenant,
            UUID id,
            String mergedFrom,
            String mergedText,
            UUID sessionId,
            String absorbedText,
            List<UUID> absorbedTurnIds) {
        MemoryRecord record = lock(tenant, id);
        if (!record.getText().equals(mergedFrom)) {
            throw new MemoryChangedException(id);
        }
        MemoryRevision revision = revisions.revise(record, mergedText, sessionId, "merge");
        revision.absorbing(absorbedText, absorbedTurnIds);
        record.addProvenance(absorbedTurnIds);
        Trust absorbed = turnTrust.lowestOf(tenant.value(), absorbedTurnIds);
        // Absorbed turns erased since: what they said is no longer there to vouch for, so no more than medium.
        record.recordOrigin(record.getOrigin().atMost(absorbed == null ? Trust.MEDIUM : absorbed));
        return view(record);
    }

    /**
     * The embeddings of the tenant's memories that still exist among the given ids (the reranker learns from them).
     */
    @Transactional(readOnly = true)
    public Map<UUID, float[]> embeddings(TenantId tenant, Collection<UUID> ids) {
        Map<UUID, float[]> result = new HashMap<>();
        records.findByTenantIdAndIdIn(tenant.value(), ids).forEach(r -> result.put(r.getId(), r.getEmbedding()));
        return result;
    }

    /**
     * Whether the user has a memory of this kind written under a dedup key starting so (one job's several
     * memories). Asked within one user's memories of one kind, on their index, not across every tenant's.
     */
    @Transactional(readOnly = true)
    public boolean existsWithDedupKeyPrefix(TenantId tenant, String userId, MemoryKind kind, String prefix) {
        return records.existsByTenantIdAndUserIdAndKindAndDedupKeyStartingWith(tenant.value(), userId, kind, prefix);
    }

    /** The user's memory written under a dedup key, if any (used for memories that exist once per user). */
    @Transactional(readOnly = true)
    public Optional<MemoryView> findByDedupKey(TenantId tenant, String userId, DedupKey dedupKey) {
        return records.findByTenantIdAndUserIdAndDedupKey(tenant.value(), userId, dedupKey.value())
                .filter(MemoryRecord::unexpired)
                .map(this::view);
    }

    @Transactional
    public void delete(TenantId tenant, UUID id) {
        MemoryRecord record = find(tenant, id);
        records.delete(record);
        events.publishEvent(record.event(MemoryEvent.Type.DELETED, "client"));
    }

    /** Locked by its whole key's tenant, so that on Citus the lock is taken on the tenant's shard alone. */
    private MemoryRecord lock(TenantId tenant, UUID id) {
        return records.lockByIdAndTenantId(id, tenant.value()).orElseThrow(() -> new NotFoundException("Memory", id));
    }

    /** The tenant's memory, unless it has expired: an expired memory is invisible until it is deleted. */
    private MemoryRecord find(TenantId tenant, UUID id) {
        return records.findByIdAndTenantId(id, tenant.value())
                .filter(MemoryRecord::unexpired)
                .orElseThrow(() -> new NotFoundException("Memory", id));
    }

    /** A memory as the API shows it, with the memories it superseded. */
    private MemoryView view(MemoryRecord r) {
        records.flush();
        return r.view(supersessions.supersededBy(r.getTenantId(), r.getUserId(), r.getId()));
    }
}
