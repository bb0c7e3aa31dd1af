package dev.memoir.archive;

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

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;

import dev.memoir.archive.ConversationPlanner.Part;
import dev.memoir.archive.ExportReport.ConversationReport;
import dev.memoir.archive.ExportReport.Status;
import dev.memoir.archive.ExportSpool.Slot;
import dev.memoir.common.web.ApiException;
import dev.memoir.common.wire.ClockSkew;
import dev.memoir.memory.MemorySettingsOverride;
import dev.memoir.memory.MemoryStrategy;
import dev.memoir.session.NewTurn;
import dev.memoir.session.Role;
import dev.memoir.session.SessionService;
import dev.memoir.tenant.TenantId;

import tools.jackson.databind.json.JsonMapper;

/**
 * Imports a ChatGPT or Claude data export as closed sessions of one user, one session per conversation (or per part
 * of a conversation added since an earlier import). Two passes: the export is first read whole as it streams in,
 * each conversation turned into the part still to store and written to a spool file (so that an export that cannot
 * be read is refused before anything is stored, and the heap holds one conversation at a time); the parts are then
 * stored in the order their dialogue happened, each conversation in a transaction of its own (whole or not at all),
 * and closed in that order, which is the order the recursive summary folds them in.
 */
@Service
class ExportImporter {

    private final SessionService sessions;
    private final ConversationImports imports;
    private final JsonMapper json;
    private final ClockSkew clockSkew;
    private final ArchiveObservations observations;
    private final ApplicationEventPublisher events;

    ExportImporter(
            SessionService sessions,
            ConversationImports imports,
            JsonMapper json,
            ClockSkew clockSkew,
            ArchiveObservations observations,
            ApplicationEventPublisher events) {
        this.events = events;
        this.sessions = sessions;
        this.imports = imports;
        this.json = json;
        this.clockSkew = clockSkew;
        this.observations = observations;
    }

    /** One {@code memoir.import} of the whole export; each conversation is stored in a transaction of its own. */
    ExportReport importExport(
            TenantId tenant, String userId, ExportSource source, MemoryStrategy strategy, InputStream body) {
        return observations.importing(
                source.wireName() + "-export", () -> importConversations(tenant, userId, source, strategy, body));
    }

    private ExportReport importConversations(
            TenantId tenant, String userId, ExportSource source, MemoryStrategy strategy, InputStream body) {
        Map<String, ConversationImports.Part> stored = imports.latest(tenant, userId, source);
        Instant latestAllowed = clockSkew.latestAllowed();
        List<ConversationReport> reports = new ArrayList<>();
        List<Slot> slots = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        try (ExportSpool spool = new ExportSpool(json)) {
            ExportReader.read(body, source, json, conversation -> {
                int position = reports.size();
                if (conversation.id() != null && !seen.add(conversation.id())) {
                    reports.add(ConversationReport.refused(
                            conversation.id(),
                            ConversationPlanner.title(conversation.title()),
                            "the export holds this conversation more than once; the first was read"));
                    return;
                }
                switch (ConversationPlanner.plan(
                        position, conversation, stored.get(conversation.id()), latestAllowed)) {
                    case ConversationPlanner.NothingToStore nothing -> reports.add(nothing.report());
                    case Part part -> {
                        reports.add(part.report());
                        slots.add(spool.write(part));
                    }
                }
            });
            MemorySettingsOverride memory = strategy == null
                    ? null
                    : new MemorySettingsOverride(strategy, null, null, null, null, null, null, null, null);
            slots.sort(Comparator.comparing(Slot::firstTurnAt, Comparator.nullsLast(Comparator.naturalOrder()))
                    .thenComparingInt(Slot::position));
            for (Slot slot : slots) {
                Part part = spool.read(slot);
                reports.set(part.position(), store(tenant, userId, source, memory, part));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ExportReport report = ExportReport.of(source, reports);
        events.publishEvent(new ImportFinished(tenant, userId, source.wireName(), report.imported()));
        return report;
    }

    private ConversationReport store(
            TenantId tenant, String userId, ExportSource source, MemorySettingsOverride memory, Part part) {
        List<NewTurn> turns = part.turns().stream()
                .map(t -> new NewTurn(Role.ofMessageRole(t.role()).orElseThrow(), t.text(), t.occurredAt(), null))
                .toList();
        try {
            var session = sessions.importClosed(
                    tenant,
                    userId,
                    memory,
                    part.title(),
                    turns,
                    ref -> imports.record(
                            tenant,
                            ref.id(),
                            userId,
                            source,
                            part.conversationId(),
                            part.from(),
                            part.to(),
                            part.lastMessageId()));
            return part.report().stored(session.id());
        } catch (DuplicateKeyException e) {
            return part.report()
                    .notStored(Status.UNCHANGED, "another import of the same conversation stored it " + "meanwhile");
        } catch (ApiException e) {
            return part.report().notStored(Status.REFUSED, e.getMessage());
        }
    }
}
