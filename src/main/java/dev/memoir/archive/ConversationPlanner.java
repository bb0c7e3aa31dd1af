package dev.memoir.archive;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.memoir.archive.ExportReport.ConversationReport;
import dev.memoir.archive.ExportReport.Skipped;
import dev.memoir.archive.ExportReport.Status;
import dev.memoir.archive.ExportedConversation.Message;
import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.common.wire.TextSafety;

/**
 * What {@link ExportImporter} stores of one exported conversation: the messages added since an earlier import, as
 * the turns they become (a long message split, those that are no turn of the dialogue skipped and counted), or the
 * report of a conversation that is refused or has nothing to store.
 */
final class ConversationPlanner {

    /** A message longer than this (a chat message's limit) becomes several turns. */
    static final int TURN_LIMIT = FieldConstraints.CHAT_MESSAGE;
    /** Characters of a title kept. */
    static final int TITLE_LIMIT = 500;

    /** What planning a conversation comes to: a part to store, or nothing to store and why. */
    sealed interface Plan permits Part, NothingToStore {}

    /** A conversation's part still to store, as spooled. */
    record Part(
            int position,
            String conversationId,
            String title,
            int from,
            int to,
            String lastMessageId,
            List<PlannedTurn> turns,
            ConversationReport report)
            implements Plan {}

    /** A conversation refused, unchanged since an earlier import, or with no message to store. */
    record NothingToStore(ConversationReport report) implements Plan {}

    record PlannedTurn(String role, String text, Instant occurredAt) {}

    private ConversationPlanner() {}

    /** The part of the conversation still to store, or the report of a conversation with nothing to store. */
    static Plan plan(
            int position, ExportedConversation conversation, ConversationImports.Part before, Instant latestAllowed) {
        String title = title(conversation.title());
        if (conversation.refusal() != null) {
            return new NothingToStore(ConversationReport.refused(conversation.id(), title, conversation.refusal()));
        }
        String idProblem = idProblem("its id", conversation.id());
        if (idProblem != null) {
            return new NothingToStore(ConversationReport.refused(null, title, idProblem));
        }
        List<Message> messages = dated(conversation);
        if (!messages.isEmpty()
                && idProblem("its last message's id", messages.getLast().id()) != null) {
            return new NothingToStore(ConversationReport.refused(
                    conversation.id(),
                    title,
                    idProblem("its last message's id", messages.getLast().id())));
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
                return new NothingToStore(ConversationReport.refused(
                        conversation.id(),
                        title,
                        "message " + before.lastMessageId()
                                + ", the last one an earlier import stored, is not on the dialogue the export holds now (a "
                                + "message before it was edited): its new messages cannot be told from those stored"));
            }
            from = last + 1;
        }
        List<Message> added = messages.subList(from, messages.size());
        if (added.isEmpty()) {
            return new NothingToStore(new ConversationReport(
                    conversation.id(),
                    title,
                    Status.UNCHANGED,
                    null,
                    null,
                    null,
                    0,
                    0,
                    0,
                    Skipped.NONE,
                    0,
                    "nothing new since an earlier import"));
        }
        int system = 0, tool = 0, hidden = 0, empty = 0, nonText = 0, split = 0;
        List<PlannedTurn> turns = new ArrayList<>();
        for (Message message : added) {
            if (message.occurredAt() != null && message.occurredAt().isAfter(latestAllowed)) {
                return new NothingToStore(ConversationReport.refused(
                        conversation.id(),
                        title,
                        "message " + message.id() + " is dated " + message.occurredAt() + ", in the future"));
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
                return new NothingToStore(ConversationReport.refused(
                        conversation.id(), title, "message " + message.id() + ": " + problem));
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
        ConversationReport report = new ConversationReport(
                conversation.id(),
                title,
                Status.IMPORTED,
                null,
                turns.isEmpty() ? null : turns.getFirst().occurredAt(),
                turns.isEmpty() ? null : turns.getLast().occurredAt(),
                added.size(),
                turns.size(),
                split,
                new Skipped(system, tool, hidden, empty),
                nonText,
                null);
        if (turns.isEmpty()) {
            return new NothingToStore(report.notStored(
                    Status.EMPTY,
                    "none of its " + (before == null ? "" : "new ") + "messages is a " + "turn of the dialogue"));
        }
        return new Part(
                position,
                conversation.id(),
                title,
                from,
                messages.size(),
                messages.getLast().id(),
                turns,
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
            previous = conversation.messages().stream()
                    .map(Message::occurredAt)
                    .filter(t -> t != null)
                    .findFirst()
                    .orElse(null);
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

    static String title(String title) {
        if (title == null || !TextSafety.hasVisibleCharacter(title) || TextSafety.problem(title) != null) {
            return null;
        }
        String stripped = title.strip();
        return stripped.length() <= TITLE_LIMIT ? stripped : stripped.substring(0, TITLE_LIMIT);
    }
}
