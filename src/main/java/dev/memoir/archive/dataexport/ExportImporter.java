package dev.memoir.archive.dataexport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;

import dev.memoir.archive.api.ExportReport;
import dev.memoir.archive.api.ExportReport.ConversationReport;
import dev.memoir.archive.api.ExportReport.Status;
import dev.memoir.archive.api.ExportSource;
import dev.memoir.archive.api.ImportFinished;
import dev.memoir.archive.dataexport.ConversationPlanner.NothingToStore;
import dev.memoir.archive.dataexport.ConversationPlanner.Planned;
import dev.memoir.archive.dataexport.ConversationPlanner.Run;
import dev.memoir.archive.dataexport.ExportSpool.Slot;
import dev.memoir.common.jdbc.AdvisoryLocks;
import dev.memoir.common.web.ApiException;
import dev.memoir.common.web.Observed;
import dev.memoir.common.wire.ClockSkew;
import dev.memoir.memory.MemorySettingsOverride;
import dev.memoir.memory.MemoryStrategy;
import dev.memoir.session.SessionService;
import dev.memoir.session.api.ImportedSession;
import dev.memoir.session.api.NewTurn;
import dev.memoir.session.api.SessionRef;
import dev.memoir.tenant.TenantId;

/**
 * Imports a ChatGPT or Claude data export as closed sessions of one user, one session per conversation (or per run of
 * its messages that no session holds yet: those added since an earlier import, and those of a part whose session was
 * deleted since). Two passes: the export is first read whole as it streams in, within {@link ImportLimits}, each
 * conversation planned against what is stored and, when it has something to store, written to a spool file (so
 * that an export that cannot be read is refused before anything is stored, and the heap holds one conversation at
 * a time); the conversations are then stored in the order their dialogue happened, each in a transaction of its own
 * (whole or not at all) that plans it again from its stored parts, read and locked there, and closed in that order,
 * which is the order the recursive summary folds them in.
 *
 * <p>The user is held for the whole import ({@link AdvisoryLocks.Space#EXPORT_IMPORT}, shared): an erasure of the
 * user waits until the import is done and then erases all of it, and an import that starts after an erasure began
 * waits for it and finds nothing stored. So no event about the user follows {@code user.erased}.
 */
@Service
public class ExportImporter {

    /** Plans of one conversation made again, when a concurrent change moved what it was planned from. */
    private static final int STORE_ATTEMPTS = 3;

    private final SessionService sessions;
    private final ConversationImports imports;
    private final ClockSkew clockSkew;
    private final Observed observations;
    private final ApplicationEventPublisher events;
    private final AdvisoryLocks locks;
    private final ImportLimits limits;

    ExportImporter(
            SessionService sessions,
            ConversationImports imports,
            ClockSkew clockSkew,
            Observed observations,
            ApplicationEventPublisher events,
            AdvisoryLocks locks,
            ImportLimits limits) {
        this.events = events;
        this.sessions = sessions;
        this.imports = imports;
        this.clockSkew = clockSkew;
        this.observations = observations;
        this.locks = locks;
        this.limits = limits;
    }

    /** One {@code memoir.import} of the whole export; each conversation is stored in a transaction of its own. */
    public ExportReport importExport(
            TenantId tenant, String userId, ExportSource source, MemoryStrategy strategy, InputStream body) {
        return observations.importing(source.wireName() + "-export", null, () -> {
            try (AdvisoryLocks.Hold held = locks.holdShared(
                    AdvisoryLocks.Space.EXPORT_IMPORT, AdvisoryLocks.userKey(tenant.value(), userId))) {
                return importConversations(tenant, userId, source, strategy, body);
            }
        });
    }

    private ExportReport importConversations(
            TenantId tenant, String userId, ExportSource source, MemoryStrategy strategy, InputStream body) {
        Map<String, List<ConversationImports.Part>> stored = imports.stored(tenant, userId, source);
        Instant latestAllowed = clockSkew.latestAllowed();
        List<ConversationReport> reports = new ArrayList<>();
        List<Slot> slots = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        try (ExportSpool spool = new ExportSpool()) {
            ExportReader.read(body, source, limits, conversation -> {
                int position = reports.size();
                // Only an id that can be a key (of a bounded length) is kept, to tell a repeat.
                if (ExportedText.isKey(conversation.id()) && !seen.add(conversation.id())) {
                    reports.add(ConversationReport.refused(
                            ExportedText.echoed(conversation.id()),
                            ExportedText.title(conversation.title()),
                            "the export holds this conversation more than once; the first was read"));
                    return;
                }
                ConversationPlanner.Plan plan = ConversationPlanner.plan(
                        position,
                        conversation,
                        stored.getOrDefault(conversation.id(), List.of()),
                        latestAllowed,
                        limits);
                reports.add(plan.report());
                if (plan instanceof Planned planned) {
                    slots.add(spool.write(position, planned.firstTurnAt(), conversation));
                }
            });
            MemorySettingsOverride memory = strategy == null
                    ? null
                    : new MemorySettingsOverride(strategy, null, null, null, null, null, null, null, null, null);
            slots.sort(Comparator.comparing(Slot::firstTurnAt, Comparator.nullsLast(Comparator.naturalOrder()))
                    .thenComparingInt(Slot::position));
            for (Slot slot : slots) {
                ExportedConversation conversation = spool.read(slot);
                reports.set(
                        slot.position(),
                        store(
                                tenant,
                                userId,
                                source,
                                memory,
                                slot.position(),
                                conversation,
                                stored.getOrDefault(conversation.id(), List.of()),
                                latestAllowed));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ExportReport report = ExportReport.of(source, reports);
        events.publishEvent(new ImportFinished(tenant, userId, source.wireName(), report.imported()));
        return report;
    }

    /** A conversation's stored parts changed between its planning and its transaction: plan it again. */
    private static final class PlannedFromChangedParts extends RuntimeException {
        PlannedFromChangedParts() {
            super(null, null, false, false);
        }
    }

    /**
     * Stores what the conversation still has to store, planned from its stored parts as they are when its transaction
     * holds them: a part whose session was deleted since the first pass is stored again, whole.
     */
    private ConversationReport store(
            TenantId tenant,
            String userId,
            ExportSource source,
            MemorySettingsOverride memory,
            int position,
            ExportedConversation conversation,
            List<ConversationImports.Part> storedBefore,
            Instant latestAllowed) {
        List<ConversationImports.Part> parts = storedBefore;
        for (int attempt = 1; ; attempt++) {
            List<ConversationImports.Part> plannedFrom = parts;
            ConversationPlanner.Plan plan =
                    ConversationPlanner.plan(position, conversation, parts, latestAllowed, limits);
            if (plan instanceof NothingToStore nothing) {
                return nothing.report();
            }
            Planned planned = (Planned) plan;
            try {
                List<SessionRef> refs =
                        storePlanned(tenant, userId, source, memory, conversation, planned, plannedFrom);
                List<UUID> ids = refs.stream().map(SessionRef::id).toList();
                return planned.report().stored(ids);
            } catch (PlannedFromChangedParts e) {
                parts = imports.storedOf(tenant, userId, source, conversation.id());
                if (attempt == STORE_ATTEMPTS) {
                    return planned.report()
                            .notStored(
                                    Status.REFUSED,
                                    "its sessions were deleted or stored by another request while it was imported, "
                                            + STORE_ATTEMPTS + " times: import it again");
                }
            } catch (DuplicateKeyException e) {
                return planned.report()
                        .notStored(Status.UNCHANGED, "another import of the same conversation stored it meanwhile");
            } catch (ApiException e) {
                return planned.report().notStored(Status.REFUSED, e.getMessage());
            }
        }
    }

    /**
     * Stores the planned runs as closed sessions, each with its record of the part it holds, once the conversation's
     * stored parts are locked and still those it was planned from ({@link PlannedFromChangedParts} otherwise).
     */
    private List<SessionRef> storePlanned(
            TenantId tenant,
            String userId,
            ExportSource source,
            MemorySettingsOverride memory,
            ExportedConversation conversation,
            Planned planned,
            List<ConversationImports.Part> plannedFrom) {
        return sessions.importClosed(
                tenant,
                userId,
                memory,
                planned.runs().stream()
                        .map(run -> new ImportedSession(planned.title(), turns(run)))
                        .toList(),
                source.turnOrigin(),
                () -> {
                    if (!imports.lockedParts(tenant, userId, source, conversation.id())
                            .equals(plannedFrom)) {
                        throw new PlannedFromChangedParts();
                    }
                },
                stored -> {
                    for (int i = 0; i < stored.size(); i++) {
                        Run run = planned.runs().get(i);
                        imports.record(
                                tenant,
                                stored.get(i).id(),
                                userId,
                                source,
                                conversation.id(),
                                run.from(),
                                run.to(),
                                run.lastMessageId());
                    }
                });
    }

    private static List<NewTurn> turns(Run run) {
        return run.turns().stream()
                .map(t -> new NewTurn(t.role(), t.text(), t.occurredAt(), null))
                .toList();
    }
}
