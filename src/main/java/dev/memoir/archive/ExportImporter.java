package dev.memoir.archive;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;

import dev.memoir.archive.ExportReport.ConversationReport;
import dev.memoir.archive.ExportReport.Skipped;
import dev.memoir.archive.ExportReport.Status;
import dev.memoir.archive.ExportedConversation.Message;
import dev.memoir.memory.MemorySettingsOverride;
import dev.memoir.memory.MemoryStrategy;
import dev.memoir.session.NewTurn;
import dev.memoir.session.Role;
import dev.memoir.session.SessionService;
import dev.memoir.tenant.TenantId;
import dev.memoir.web.ApiException;
import dev.memoir.web.ClockSkew;
import dev.memoir.web.FieldConstraints;
import dev.memoir.web.TextSafety;

import tools.jackson.core.JacksonException;
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

    /** A message longer than this (a chat message's limit) becomes several turns. */
    static final int TURN_LIMIT = FieldConstraints.CHAT_MESSAGE;
    /** Characters of a title kept. */
    static final int TITLE_LIMIT = 500;

    /** A conversation's part still to store, as spooled. */
    record Part(int position, String conversationId, String title, int from, int to, String lastMessageId,
            List<PlannedTurn> turns, ConversationReport report) {
    }

    record PlannedTurn(String role, String text, Instant occurredAt) {
    }

    private record Slot(int position, Instant firstTurnAt, long offset, int length) {
    }

    private final SessionService sessions;
    private final ConversationImports imports;
    private final JsonMapper json;
    private final ClockSkew clockSkew;
    private final ObservationRegistry observations;
    private final ApplicationEventPublisher events;

    ExportImporter(SessionService sessions, ConversationImports imports, JsonMapper json, ClockSkew clockSkew,
            ObservationRegistry observations, ApplicationEventPublisher events) {
        this.events = events;
        this.sessions = sessions;
        this.imports = imports;
        this.json = json;
        this.clockSkew = clockSkew;
        this.observations = observations;
    }

    ExportReport importExport(TenantId tenant, String userId, ExportSource source, MemoryStrategy strategy,
            InputStream body) {
        return Observation.createNotStarted("memoir.import", observations)
                .lowCardinalityKeyValue("memoir.import.what", source.wireName() + "-export")
                .observe(() -> run(tenant, userId, source, strategy, body));
    }

    private ExportReport run(TenantId tenant, String userId, ExportSource source, MemoryStrategy strategy,
            InputStream body) {
        Map<String, ConversationImports.Part> stored = imports.latest(tenant, userId, source);
        Instant latestAllowed = clockSkew.latestAllowed();
        List<ConversationReport> reports = new ArrayList<>();
        List<Slot> slots = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        try (Spool spool = new Spool()) {
            ExportReader.read(body, source, json, conversation -> {
                int position = reports.size();
                if (conversation.id() != null && !seen.add(conversation.id())) {
                    reports.add(ConversationReport.refused(conversation.id(), title(conversation.title()),
                            "the export holds this conversation more than once; the first was read"));
                    return;
                }
                Object planned = plan(position, conversation, stored.get(conversation.id()), latestAllowed);
                if (planned instanceof ConversationReport report) {
                    reports.add(report);
                } else {
                    Part part = (Part) planned;
                    reports.add(part.report());
                    slots.add(spool.write(part));
                }
            });
            MemorySettingsOverride memory = strategy == null ? null
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

    private ConversationReport store(TenantId tenant, String userId, ExportSource source,
            MemorySettingsOverride memory, Part part) {
        List<NewTurn> turns = part.turns().stream()
                .map(t -> new NewTurn(Role.ofMessageRole(t.role()).orElseThrow(), t.text(), t.occurredAt(),
                        null))
                .toList();
        try {
            var session = sessions.importClosed(tenant, userId, memory, part.title(), turns,
                    ref -> imports.record(tenant, ref.id(), userId, source, part.conversationId(), part.from(),
                            part.to(), part.lastMessageId()));
            return part.report().stored(session.id());
        } catch (DuplicateKeyException e) {
            return part.report().notStored(Status.UNCHANGED, "another import of the same conversation stored it "
                    + "meanwhile");
        } catch (ApiException e) {
            return part.report().notStored(Status.REFUSED, e.getMessage());
        }
    }

    /** The part of the conversation still to store, or the report of a conversation with nothing to store. */
    private Object plan(int position, ExportedConversation conversation, ConversationImports.Part before,
            Instant latestAllowed) {
        String title = title(conversation.title());
        if (conversation.refusal() != null) {
            return ConversationReport.refused(conversation.id(), title, conversation.refusal());
        }
        String idProblem = idProblem("its id", conversation.id());
        if (idProblem != null) {
            return ConversationReport.refused(null, title, idProblem);
        }
        List<Message> messages = dated(conversation);
        if (!messages.isEmpty() && idProblem("its last message's id", messages.getLast().id()) != null) {
            return ConversationReport.refused(conversation.id(), title,
                    idProblem("its last message's id", messages.getLast().id()));
        }
        int from = 0;
        if (before != null) {
            int last = -1;
            for (int i = messages.size() - 1; i >= 0; i--) {
                if (messages.get(i).id().equals(before.lastMessageId())) {
                    last = i;
                    break;
                }
            }
            if (last < 0) {
                return ConversationReport.refused(conversation.id(), title, "message " + before.lastMessageId()
                        + ", the last one an earlier import stored, is not on the dialogue the export holds now (a "
                        + "message before it was edited): its new messages cannot be told from those stored");
            }
            from = last + 1;
        }
        List<Message> added = messages.subList(from, messages.size());
        if (added.isEmpty()) {
            return new ConversationReport(conversation.id(), title, Status.UNCHANGED, null, null, null, 0, 0, 0,
                    Skipped.NONE, 0, "nothing new since an earlier import");
        }
        int system = 0, tool = 0, hidden = 0, empty = 0, nonText = 0, split = 0;
        List<PlannedTurn> turns = new ArrayList<>();
        for (Message message : added) {
            if (message.occurredAt() != null && message.occurredAt().isAfter(latestAllowed)) {
                return ConversationReport.refused(conversation.id(), title, "message " + message.id() + " is dated "
                        + message.occurredAt() + ", in the future");
            }
            if (message.role() == null) {
                switch (message.skipped()) {
                    case "system" -> system++;
                    case "tool" -> tool++;
                    case "hidden" -> hidden++;
                    default -> {
                        empty++;
                        nonText += message.nonTextParts();
                    }
                }
                continue;
            }
            nonText += message.nonTextParts();
            String problem = TextSafety.problem(message.text());
            if (problem != null) {
                return ConversationReport.refused(conversation.id(), title, "message " + message.id() + ": "
                        + problem);
            }
            if (!TextSafety.hasVisibleCharacter(message.text())) {
                empty++;
                continue;
            }
            List<String> pieces = TurnSplitter.split(message.text(), TURN_LIMIT);
            if (pieces.size() > 1) {
                split++;
            }
            pieces.forEach(piece -> turns.add(new PlannedTurn(message.role(), piece, message.occurredAt())));
        }
        ConversationReport report = new ConversationReport(conversation.id(), title, Status.IMPORTED, null,
                turns.isEmpty() ? null : turns.getFirst().occurredAt(),
                turns.isEmpty() ? null : turns.getLast().occurredAt(), added.size(), turns.size(), split,
                new Skipped(system, tool, hidden, empty), nonText, null);
        if (turns.isEmpty()) {
            return report.notStored(Status.EMPTY, "none of its " + (before == null ? "" : "new ") + "messages is a "
                    + "turn of the dialogue");
        }
        return new Part(position, conversation.id(), title, from, messages.size(), messages.getLast().id(), turns,
                report);
    }

    /**
     * The messages with a time each, in order: a message without one takes the one before it (the conversation's
     * creation for the first, or the first time given), and none is dated before the one before it, as a session's
     * turns must not be. A conversation without any time is stored with none (dated when it is stored).
     */
    static List<Message> dated(ExportedConversation conversation) {
        Instant previous = conversation.createdAt();
        if (previous == null) {
            previous = conversation.messages().stream().map(Message::occurredAt).filter(t -> t != null)
                    .findFirst().orElse(null);
        }
        List<Message> dated = new ArrayList<>(conversation.messages().size());
        for (Message message : conversation.messages()) {
            Instant time = message.occurredAt();
            if (time == null || (previous != null && time.isBefore(previous))) {
                time = previous;
            }
            dated.add(message.at(time));
            previous = time;
        }
        return dated;
    }

    /** Ids are the import's key: one line of text, of a sensible length. */
    static final int ID_LIMIT = 200;

    private static String idProblem(String what, String id) {
        String problem = TextSafety.problem(id);
        if (problem != null) {
            return what + " " + problem;
        }
        return id.length() > ID_LIMIT ? what + " is longer than " + ID_LIMIT + " characters" : null;
    }

    private static String title(String title) {
        if (title == null || !TextSafety.hasVisibleCharacter(title) || TextSafety.problem(title) != null) {
            return null;
        }
        String stripped = title.strip();
        return stripped.length() <= TITLE_LIMIT ? stripped : stripped.substring(0, TITLE_LIMIT);
    }

    /** The parts of an import's conversations, spooled to a temporary file until they are stored. */
    private final class Spool implements AutoCloseable {

        private final Path file;
        private final FileChannel channel;

        Spool() throws IOException {
            file = Files.createTempFile("memoir-export-", ".json");
            channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    StandardOpenOption.DELETE_ON_CLOSE);
        }

        Slot write(Part part) {
            try {
                byte[] bytes = json.writeValueAsBytes(part);
                long offset = channel.size();
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer, offset + buffer.position());
                }
                return new Slot(part.position(), part.turns().getFirst().occurredAt(), offset, bytes.length);
            } catch (IOException | JacksonException e) {
                throw new UncheckedIOException(new IOException("Could not spool an export's conversation", e));
            }
        }

        Part read(Slot slot) throws IOException {
            ByteBuffer buffer = ByteBuffer.allocate(slot.length());
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, slot.offset() + buffer.position()) < 0) {
                    throw new IOException("The export's spool file ends early");
                }
            }
            return json.readValue(buffer.array(), Part.class);
        }

        @Override
        public void close() throws IOException {
            channel.close();
            Files.deleteIfExists(file);
        }
    }
}
