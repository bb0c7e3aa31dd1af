package dev.memoir.memory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.data.domain.Limit;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.jobs.Jobs;
import dev.memoir.llm.EmbeddedDocument;
import dev.memoir.llm.TextEmbedder;
import dev.memoir.memory.revision.MemoryRevision;
import dev.memoir.memory.revision.MemoryRevisionList;
import dev.memoir.memory.revision.MemoryRevisionRepository;
import dev.memoir.memory.revision.MemoryRevisionView;
import dev.memoir.memory.store.EmbeddingText;
import dev.memoir.memory.store.MemoryPassages;
import dev.memoir.memory.store.MemoryRecord;
import dev.memoir.memory.store.MemoryRecordRepository;
import dev.memoir.memory.supersession.FactSupersession;
import dev.memoir.memory.supersession.SupersessionProperties;
import dev.memoir.memory.supersession.Supersessions;
import dev.memoir.tenant.TenantId;
import dev.memoir.web.AdvisoryLocks;
import dev.memoir.web.ClockSkew;
import dev.memoir.web.Cursor;
import dev.memoir.web.Hashes;
import dev.memoir.web.InvalidRequestException;
import dev.memoir.web.NotFoundException;

/**
 * Stores memories and their versions: what Memoir's pipelines write, revise, merge and supersede, and what a
 * client adds, reads, changes and deletes directly. Searching is {@link MemorySearches}'; the counts behind the list
 * of users, erasure and purging have facades of their own ({@link MemoryUsers}, {@link MemoryErasure},
 * {@link MemoryPurge}).
 */
@Service
public class MemoryStore {

    private final MemoryRecordRepository records;
    private final MemoryRevisionRepository revisions;
    private final TextEmbedder embedder;
    // The skew allowed for turns' occurredAt (memoir.session.clock-skew) bounds added memories' dates the same way.
    private final ClockSkew clockSkew;
    private final MemoryPassages passages;
    private final Supersessions supersessions;
    private final Jobs jobs;
    private final SupersessionProperties supersession;
    private final AdvisoryLocks locks;
    private final ApplicationEventPublisher events;

    MemoryStore(MemoryRecordRepository records, MemoryRevisionRepository revisions, TextEmbedder embedder,
            MemoryPassages passages, Supersessions supersessions, Jobs jobs, SupersessionProperties supersession,
            ClockSkew clockSkew, AdvisoryLocks locks, ApplicationEventPublisher events) {
        this.events = events;
        this.locks = locks;
        this.jobs = jobs;
        this.supersession = supersession;
        this.passages = passages;
        this.supersessions = supersessions;
        this.clockSkew = clockSkew;
        this.records = records;
        this.revisions = revisions;
        this.embedder = embedder;
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
     */
    @Transactional
    public AddedMemory add(TenantId tenant, String userId, MemoryKind kind, String text, Instant occurredAt) {
        return add(tenant, userId, kind, text, occurredAt, null, null);
    }

    /**
     * As {@link #add(TenantId, String, MemoryKind, String, Instant)}, superseding some of the user's memories and
     * expiring at a given instant.
     *
     * @param supersedes the user's live fact-bearing memories the new one supersedes; null or empty for none (400
     *                   naming supersedes for any other memory)
     * @param expiresAt  when the memory expires; null for never (400 naming expiresAt if not in the future)
     */
    @Transactional
    public AddedMemory add(TenantId tenant, String userId, MemoryKind kind, String text, Instant occurredAt,
            List<UUID> supersedes, Instant expiresAt) {
        requireFuture(expiresAt);
        if (kind != null && !kind.addable()) {
            throw new InvalidRequestException("kind", "cannot be " + kind + ": only fact memories can be added; "
                    + "the other kinds are written by Memoir from dialogue and feedback");
        }
        if (occurredAt != null && occurredAt.isAfter(clockSkew.latestAllowed())) {
            throw new InvalidRequestException("occurredAt", "is in the future: " + occurredAt);
        }
        kind = kind == null ? MemoryKind.FACT : kind;
        locks.lockShared(AdvisoryLocks.Space.USER_MEMORY, AdvisoryLocks.userKey(tenant.value(), userId));
        String dedupKey = factDedupKey(tenant, userId, text);
        locks.lock(AdvisoryLocks.Space.DEDUP_KEY, dedupKey);
        AddedMemory added = store(new NewMemory(tenant, userId, kind, text, null, List.of(), dedupKey)
                .occurred(occurredAt, occurredAt));
        boolean changed = false;
        MemoryRecord record = null;
        if (expiresAt != null || (supersedes != null && !supersedes.isEmpty())) {
            record = records.lockByIdAndTenantId(added.memory().id(), tenant.value()).orElseThrow();
        }
        if (expiresAt != null) {
            record.expireAt(expiresAt);
            changed = true;
        }
        if (supersedes != null && !supersedes.isEmpty()) {
            // The same fact added again names more that it supersedes: added to what it superseded before.
            List<UUID> wanted = new ArrayList<>(added.created() ? List.of()
                    : supersessions.supersededBy(tenant.value(), userId, record.getId()));
            wanted.addAll(supersedes);
            replaceSupersedes(tenant, record, wanted);
            changed = true;
        } else if (supersedes == null && added.created() && supersession.enabled()) {
            // Queued in this transaction: the judgement exists exactly when the fact does.
            jobs.queue(FactSupersession.JOB, tenant, added.memory().id().toString());
        }
        return changed ? new AddedMemory(view(record), added.created()) : added;
    }

    /** A memory as the supersession of a fact needs it: whose it is, what it says, when it was said. */
    public record LiveMemory(UUID tenantId, String userId, String text, Instant occurredFrom) {
    }

    /** The tenant's memory, if it is still there, live and unexpired. */
    @Transactional(readOnly = true)
    public Optional<LiveMemory> liveMemory(TenantId tenant, UUID id) {
        return records.findByIdAndTenantId(id, tenant.value()).filter(MemoryStore::unexpired)
                .filter(r -> r.getSupersededBy() == null)
                .map(r -> new LiveMemory(r.getTenantId(), r.getUserId(), r.getText(), r.getOccurredFrom()));
    }

    /** Marks {@code superseded} superseded by {@code by}, if {@code by} is still there and live. */
    @Transactional
    public void supersedeIfLive(TenantId tenant, String userId, UUID by, Collection<UUID> superseded) {
        supersessions.supersedeIfLive(tenant.value(), userId, by, superseded);
    }

    private static void requireFuture(Instant expiresAt) {
        if (expiresAt != null && !expiresAt.isAfter(Instant.now())) {
            throw new InvalidRequestException("expiresAt", "is not in the future: " + expiresAt);
        }
    }

    /**
     * Makes {@code by} supersede exactly {@code ids}: the memories it superseded before and are not listed become
     * live again. Only the user's own fact-bearing memories, live or already superseded by {@code by}, and only by
     * a live one: a chain of supersessions can then never loop.
     */
    private void replaceSupersedes(TenantId tenant, MemoryRecord by, List<UUID> ids) {
        Set<UUID> wanted = new LinkedHashSet<>(ids);
        if (!wanted.isEmpty() && !by.getKind().factBearing()) {
            throw new InvalidRequestException("supersedes", "only " + MemoryKind.FACT_BEARING + " memories supersede "
                    + "others; this one is a " + by.getKind() + " memory");
        }
        if (wanted.contains(by.getId())) {
            throw new InvalidRequestException("supersedes", "a memory cannot supersede itself: " + by.getId());
        }
        records.flush();
        Map<UUID, Supersessions.Row> found = new HashMap<>();
        Set<UUID> locked = new HashSet<>(wanted);
        locked.add(by.getId());
        // Read as locked now, not as this transaction first loaded it: another change may have superseded it since.
        supersessions.lock(by.getTenantId(), locked).forEach(row -> found.put(row.id(), row));
        UUID bySuperseder = found.containsKey(by.getId()) ? found.get(by.getId()).supersededBy() : null;
        if (!wanted.isEmpty() && bySuperseder != null) {
            throw new InvalidRequestException("supersedes", "memory " + by.getId() + " is itself superseded by "
                    + bySuperseder + ": only a live memory supersedes others");
        }
        for (UUID id : wanted) {
            Supersessions.Row row = found.get(id);
            if (row == null || !row.userId().equals(by.getUserId())) {
                throw new InvalidRequestException("supersedes", "memory " + id + " is not one of user "
                        + by.getUserId() + "'s memories");
            }
            if (!row.kind().factBearing()) {
                throw new InvalidRequestException("supersedes", "memory " + id + " is a " + row.kind()
                        + " memory; only " + MemoryKind.FACT_BEARING + " memories can be superseded");
            }
            if (row.supersededBy() != null && !row.supersededBy().equals(by.getId())) {
                throw new InvalidRequestException("supersedes", "memory " + id + " is already superseded by "
                        + row.supersededBy());
            }
        }
        supersessions.reinstate(by.getTenantId(), by.getUserId(), by.getId());
        supersessions.supersede(by.getTenantId(), by.getUserId(), by.getId(), wanted);
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
        if (memory.dedupKey() != null) {
            Optional<MemoryRecord> existing = records.findByTenantIdAndUserIdAndDedupKey(memory.tenant().value(),
                    memory.userId(), memory.dedupKey());
            if (existing.isPresent() && unexpired(existing.get())) {
                return new AddedMemory(view(existing.get()), false);
            }
            if (existing.isPresent()) {
                // Expired and waiting for the purge: the memory written now replaces it, as if it were gone.
                records.delete(existing.get());
                records.flush();
            }
        }
        // Two workers racing on one dedup key: the second insert fails on the unique index, its job is retried,
        // and the retry finds the first worker's record above.
        EmbeddedDocument embedded = embedder.embedInPassages(List.of(EmbeddingText.of(memory.topic(),
                memory.text()))).getFirst();
        MemoryRecord record = records.save(new MemoryRecord(memory.tenant().value(), memory.userId(), memory.kind(),
                memory.text(), embedded.embedding(), embedder.modelName(), memory.sessionId(), memory.turnIds(),
                memory.dedupKey(), memory.topic(), memory.speaker(), memory.occurredFrom(), memory.occurredTo()));
        storePassages(List.of(record), List.of(embedded));
        published(MemoryEvent.Type.CREATED, record, null);
        return new AddedMemory(view(record, List.of()), true);
    }

    /** The passages of long memories just saved: written once the memories are (their key is the memories'). */
    private void storePassages(List<MemoryRecord> saved, List<EmbeddedDocument> embedded) {
        List<MemoryPassages.Owner> owners = new ArrayList<>();
        for (int i = 0; i < saved.size(); i++) {
            if (!embedded.get(i).passages().isEmpty()) {
                owners.add(EmbeddingText.passagesOf(saved.get(i), embedded.get(i)));
            }
        }
        if (!owners.isEmpty()) {
            records.flush();
            passages.insert(owners, embedder.modelName());
        }
    }

    /** A fact's dedup key: the same text added again for the same user finds the fact that has it. */
    static String factDedupKey(TenantId tenant, String userId, String text) {
        return MemoryKind.FACT.wireName() + ":" + Hashes.sha256(tenant.value() + "\n" + userId + "\n" + text);
    }

    /** The dedup key of the user's one recursive summary. */
    public static String recursiveSummaryKey(TenantId tenant, String userId) {
        return "recursive_summary:" + tenant + ":" + userId;
    }

    /** Writes several memories in the caller's transaction (imported or chatted turns). */
    @Transactional(propagation = Propagation.MANDATORY)
    public void writeAll(List<NewMemory> memories) {
        // Those prepared while the turns arrived are taken, not embedded again (TextEmbedder.prepare).
        List<EmbeddedDocument> embeddings = embedder.embedInPassages(memories.stream()
                .map(m -> EmbeddingText.of(m.topic(), m.text())).toList());
        List<MemoryRecord> saved = new ArrayList<>(memories.size());
        for (int i = 0; i < memories.size(); i++) {
            NewMemory m = memories.get(i);
            saved.add(records.save(new MemoryRecord(m.tenant().value(), m.userId(), m.kind(), m.text(),
                    embeddings.get(i).embedding(), embedder.modelName(), m.sessionId(), m.turnIds(), m.dedupKey(),
                    m.topic(), m.speaker(), m.occurredFrom(), m.occurredTo())));
        }
        storePassages(saved, embeddings);
        saved.forEach(record -> published(MemoryEvent.Type.CREATED, record, null));
    }

    /** Tells the listeners of {@link MemoryEvent} about a change, in the transaction that makes it. */
    private void published(MemoryEvent.Type type, MemoryRecord record, String reason) {
        events.publishEvent(new MemoryEvent(type, new TenantId(record.getTenantId()), record.getUserId(),
                record.getId(), record.getKind(), reason, type == MemoryEvent.Type.DELETED ? null : record.getText()));
    }

    @Transactional(readOnly = true)
    public MemoryView get(TenantId tenant, UUID id) {
        return view(find(tenant, id));
    }

    /**
     * A client's change of a memory: a new text makes a new version (re-embedded); {@code supersedes} replaces the
     * set of memories it supersedes (empty: none); the expiry is set or cleared. Parts left null stay as they are.
     */
    @Transactional
    public MemoryView update(TenantId tenant, UUID id, MemoryChange change) {
        if (change.supersedes() != null) {
            // Every row the change locks, in id order first: two changes naming each other cannot deadlock.
            Set<UUID> rows = new HashSet<>(change.supersedes());
            rows.add(id);
            supersessions.lock(tenant.value(), rows);
        }
        MemoryRecord record = records.lockByIdAndTenantId(id, tenant.value())
                .filter(MemoryStore::unexpired)
                .orElseThrow(() -> new NotFoundException("Memory", id));
        if (change.text() != null && !change.text().equals(record.getText())) {
            reviseRecord(record, change.text(), null, "edit");
        }
        if (change.expiresAt() != null) {
            requireFuture(change.expiresAt());
            record.expireAt(change.expiresAt());
        } else if (change.neverExpires()) {
            record.expireAt(null);
        }
        if (change.supersedes() != null) {
            replaceSupersedes(tenant, record, change.supersedes());
        }
        return view(record);
    }

    private static boolean unexpired(MemoryRecord record) {
        return record.getExpiresAt() == null || record.getExpiresAt().isAfter(Instant.now());
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
    public MemoryView reviseIfUnchanged(TenantId tenant, UUID id, String expectedText, String text, UUID sessionId,
            String reason) {
        MemoryRecord record = lock(tenant, id);
        if (!record.getText().equals(expectedText)) {
            throw new MemoryChangedException(id);
        }
        return revise(record, text, sessionId, reason);
    }

    private MemoryView revise(MemoryRecord record, String text, UUID sessionId, String reason) {
        reviseRecord(record, text, sessionId, reason);
        return view(record);
    }

    private MemoryRevision reviseRecord(MemoryRecord record, String text, UUID sessionId, String reason) {
        if (record.getKind().verbatim() && !reason.equals("edit")) {
            throw new IllegalStateException("A " + record.getKind() + " memory records what was said: only a client "
                    + "edits it, not a " + reason);
        }
        if (!revisions.existsByTenantIdAndMemoryId(record.getTenantId(), record.getId())) {
            revisions.save(new MemoryRevision(record.getTenantId(), record.getUserId(), record.getId(),
                    record.getVersion(), record.getText(), record.getSessionId(), "created", record.getCreatedAt()));
        }
        EmbeddedDocument embedded = embedder.embedInPassages(List.of(EmbeddingText.of(record.getTopic(), text)))
                .getFirst();
        record.revise(text, embedded.embedding(), embedder.modelName());
        passages.replace(EmbeddingText.passagesOf(record, embedded), embedder.modelName());
        published(MemoryEvent.Type.UPDATED, record, reason);
        return revisions.save(new MemoryRevision(record.getTenantId(), record.getUserId(), record.getId(),
                record.getVersion(), text, sessionId, reason, record.getUpdatedAt()));
    }

    /**
     * Merges a new summary into an existing memory (RMM's Merge): the merged text becomes a new version, the
     * provenance gains the absorbed summary's turns, and the revision keeps what was absorbed. The model merged
     * {@code mergedFrom}, the text it was shown: if the memory has changed since (another session's merge), the
     * merge fails rather than overwrite that change, and the job that asked for it is retried on the new text.
     */
    @Transactional
    public MemoryView merge(TenantId tenant, UUID id, String mergedFrom, String mergedText, UUID sessionId,
            String absorbedText, List<UUID> absorbedTurnIds) {
        MemoryRecord record = lock(tenant, id);
        if (!record.getText().equals(mergedFrom)) {
            throw new MemoryChangedException(id);
        }
        MemoryRevision revision = reviseRecord(record, mergedText, sessionId, "merge");
        revision.absorbing(absorbedText, absorbedTurnIds);
        record.addProvenance(absorbedTurnIds);
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

    /** A page of a memory's versions, newest first; a memory never revised has just its first. */
    @Transactional(readOnly = true)
    public MemoryRevisionList revisions(TenantId tenant, UUID id, String cursor, int limit) {
        MemoryRecord record = find(tenant, id);
        Cursor after = Cursor.decode(cursor, "revisions", 2);
        int below = after == null ? Integer.MAX_VALUE : after.requiring(0, id).integer(1);
        List<MemoryRevisionView> fetched = revisions.existsByTenantIdAndMemoryId(tenant.value(), id)
                ? revisions.findByTenantIdAndMemoryIdAndVersionLessThanOrderByVersionDesc(tenant.value(), id, below,
                        Limit.of(limit + 1))
                        .stream().map(MemoryRevision::view).toList()
                : Stream.of(new MemoryRevisionView(1, record.getText(), record.getSessionId(),
                        "created", null, record.getCreatedAt())).filter(r -> r.version() < below).toList();
        Cursor.Page<MemoryRevisionView> page = Cursor.page(fetched, limit,
                r -> Cursor.encode("revisions", id, r.version()));
        return new MemoryRevisionList(page.items(), page.nextCursor());
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
    public Optional<MemoryView> findByDedupKey(TenantId tenant, String userId, String dedupKey) {
        return records.findByTenantIdAndUserIdAndDedupKey(tenant.value(), userId, dedupKey)
                .filter(MemoryStore::unexpired).map(this::view);
    }

    @Transactional
    public void delete(TenantId tenant, UUID id) {
        MemoryRecord record = find(tenant, id);
        records.delete(record);
        published(MemoryEvent.Type.DELETED, record, "client");
    }

    /** Locked by its whole key's tenant, so that on Citus the lock is taken on the tenant's shard alone. */
    private MemoryRecord lock(TenantId tenant, UUID id) {
        return records.lockByIdAndTenantId(id, tenant.value()).orElseThrow(() -> new NotFoundException("Memory", id));
    }

    /** The tenant's memory, unless it has expired: an expired memory is invisible until it is deleted. */
    private MemoryRecord find(TenantId tenant, UUID id) {
        return records.findByIdAndTenantId(id, tenant.value()).filter(MemoryStore::unexpired)
                .orElseThrow(() -> new NotFoundException("Memory", id));
    }

    /** A memory as the API shows it, with the memories it superseded. */
    private MemoryView view(MemoryRecord r) {
        records.flush();
        return view(r, supersessions.supersededBy(r.getTenantId(), r.getUserId(), r.getId()));
    }

    /**
     * A memory as read by this transaction, without a query for the memories it superseded: for memories just
     * written, which have superseded none yet, or where the caller needs no more.
     */
    private static MemoryView view(MemoryRecord r, List<UUID> supersedes) {
        return new MemoryView(r.getId(), r.getKind(), r.getTopic(), r.getSpeaker(), r.getText(), null,
                provenance(r), r.getVersion(), r.getCreatedAt(), r.getUpdatedAt(), r.getOccurredFrom(),
                r.getOccurredTo(), r.getValidTo(), r.getSupersededBy(), supersedes, r.getExpiresAt(), null);
    }

    private static Provenance provenance(MemoryRecord r) {
        return new Provenance(r.getSessionId(), r.getTurnIds());
    }
}
