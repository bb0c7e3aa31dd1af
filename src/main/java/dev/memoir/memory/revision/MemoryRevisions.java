package dev.memoir.memory.revision;

import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.data.domain.Limit;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.common.web.Cursor;
import dev.memoir.common.web.NotFoundException;
import dev.memoir.llm.EmbeddedDocument;
import dev.memoir.llm.TextEmbedder;
import dev.memoir.memory.api.MemoryEvent;
import dev.memoir.memory.api.MemoryScreening;
import dev.memoir.memory.api.Trust;
import dev.memoir.memory.quarantine.MemoryScreen;
import dev.memoir.memory.store.EmbeddingText;
import dev.memoir.memory.store.MemoryPassages;
import dev.memoir.memory.store.MemoryRecord;
import dev.memoir.memory.store.MemoryRecordRepository;
import dev.memoir.memory.store.TurnTrust;
import dev.memoir.tenant.TenantId;

/**
 * A memory's versions: a new text made a new version (re-embedded, its passages cut anew) with the old text kept in
 * the memory's revision trail, and the pages of that trail the API shows. A memory never revised has no trail: its
 * first revision is written, from the memory as created, when it is first revised.
 */
@Component
public class MemoryRevisions {

    private final MemoryRecordRepository records;
    private final MemoryRevisionRepository revisions;
    private final TextEmbedder embedder;
    private final MemoryPassages passages;
    private final ApplicationEventPublisher events;
    private final MemoryScreen screen;
    private final TurnTrust turnTrust;

    MemoryRevisions(
            MemoryRecordRepository records,
            MemoryRevisionRepository revisions,
            TextEmbedder embedder,
            MemoryPassages passages,
            ApplicationEventPublisher events,
            MemoryScreen screen,
            TurnTrust turnTrust) {
        this.screen = screen;
        this.turnTrust = turnTrust;
        this.records = records;
        this.revisions = revisions;
        this.embedder = embedder;
        this.passages = passages;
        this.events = events;
    }

    /**
     * Replaces a locked memory's text with a new version, in the caller's transaction.
     *
     * @param sessionId the session whose processing caused the change, if any
     * @param reason    why, for the trail: "edit", "recursive-summary", "merge", ...
     */
    public MemoryRevision revise(MemoryRecord record, String text, UUID sessionId, String reason) {
        if (record.getKind().verbatim() && !reason.equals("edit")) {
            throw new IllegalStateException("A " + record.getKind() + " memory records what was said: only a client "
                    + "edits it, not a " + reason);
        }
        if (!revisions.existsByTenantIdAndMemoryId(record.getTenantId(), record.getId())) {
            revisions.save(new MemoryRevision(
                    record.getTenantId(),
                    record.getUserId(),
                    record.getId(),
                    record.getVersion(),
                    record.getText(),
                    record.getSessionId(),
                    "created",
                    record.getCreatedAt()));
        }
        EmbeddedDocument embedded = embedder.embedInPassages(List.of(EmbeddingText.of(record.getTopic(), text)))
                .getFirst();
        record.revise(text, embedded.embedding(), embedder.modelName());
        if (!reason.equals("edit") && !reason.equals("merge") && sessionId != null) {
            // A job's rewrite carries what the session said: trusted no more than the least of its turns. A merge is
            // capped by the turns it absorbs alone (MemoryStore.merge).
            Trust session = turnTrust.lowestOfSession(record.getTenantId(), sessionId);
            record.recordOrigin(record.getOrigin().atMost(session));
        }
        // A new text is screened afresh (a release let in the old one); a quarantined memory stays quarantined
        // whatever its new text shows, until someone releases it: a job's rewrite of a poisoned memory (a fold, a
        // merge) may lose the signs and keep the intent.
        MemoryScreening before = record.getScreening();
        boolean wasQuarantined = before != null && before.state().equals(MemoryScreening.QUARANTINED);
        MemoryScreening screening = wasQuarantined ? before : screen.screen(record.getTenantId(), text);
        record.screen(screening);
        passages.replace(EmbeddingText.passagesOf(record, embedded), embedder.modelName());
        events.publishEvent(record.event(MemoryEvent.Type.UPDATED, reason));
        if (!wasQuarantined && screening != null && screening.state().equals(MemoryScreening.QUARANTINED)) {
            events.publishEvent(record.event(MemoryEvent.Type.QUARANTINED, String.join(",", screening.signs())));
        }
        return revisions.save(new MemoryRevision(
                record.getTenantId(),
                record.getUserId(),
                record.getId(),
                record.getVersion(),
                text,
                sessionId,
                reason,
                record.getUpdatedAt()));
    }

    /** A page of a memory's versions, newest first; a memory never revised has just its first. */
    @Transactional(readOnly = true)
    public MemoryRevisionList page(TenantId tenant, UUID id, String cursor, int limit) {
        MemoryRecord record = records.findByIdAndTenantId(id, tenant.value())
                .filter(MemoryRecord::unexpired)
                .orElseThrow(() -> new NotFoundException("Memory", id));
        Cursor after = Cursor.decode(cursor, "revisions", 2);
        int below = after == null ? Integer.MAX_VALUE : after.requiring(0, id).integer(1);
        List<MemoryRevisionView> fetched = revisions.existsByTenantIdAndMemoryId(tenant.value(), id)
                ? revisions
                        .findByTenantIdAndMemoryIdAndVersionLessThanOrderByVersionDesc(
                                tenant.value(), id, below, Limit.of(limit + 1))
                        .stream()
                        .map(MemoryRevision::view)
                        .toList()
                : Stream.of(new MemoryRevisionView(
                                1, record.getText(), record.getSessionId(), "created", null, record.getCreatedAt()))
                        .filter(r -> r.version() < below)
                        .toList();
        Cursor.Page<MemoryRevisionView> page =
                Cursor.page(fetched, limit, r -> Cursor.encode("revisions", id, r.version()));
        return new MemoryRevisionList(page.items(), page.nextCursor());
    }
}
