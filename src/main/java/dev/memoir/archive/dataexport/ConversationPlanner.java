package dev.memoir.archive.dataexport;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import dev.memoir.archive.api.ExportReport.ConversationReport;
import dev.memoir.archive.api.ExportReport.Skipped;
import dev.memoir.archive.api.ExportReport.Status;
import dev.memoir.archive.dataexport.ExportedConversation.Message;
import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.common.wire.TextSafety;
import dev.memoir.session.api.Role;

/**
 * What {@link ExportImporter} stores of one exported conversation: the runs of its messages that no stored part of an
 * earlier import holds (those added since, and those of a part whose session was deleted since), each as the turns it
 * becomes (a long message split, those that are no turn of the dialogue skipped and counted), or the report of a
 * conversation that is refused or has nothing to store.
 */
final class ConversationPlanner {

    /** A message longer than this (a chat message's limit) becomes several turns. */
    static final int TURN_LIMIT = FieldConstraints.CHAT_MESSAGE;

    /** What planning a conversation comes to: something to store, or nothing to store and why. */
    sealed interface Plan permits Planned, NothingToStore {
        /** The conversation's report: as it will read once stored, or why nothing is stored. */
        ConversationReport report();
    }

    /** The runs of a conversation still to store, each a session of its own, and the report if they are stored. */
    record Planned(int position, String conversationId, String title, List<Run> runs, ConversationReport report)
            implements Plan {

        Instant firstTurnAt() {
            return runs.getFirst().turns().getFirst().occurredAt();
        }
    }

    /**
     * Messages {@code from} (inclusive) to {@code to} (exclusive) of the conversation's dialogue path, ending with
     * {@code lastMessageId}, as the turns they become.
     */
    record Run(int from, int to, String lastMessageId, List<PlannedTurn> turns) {}

    /** A conversation refused, unchanged since an earlier import, or with no message to store. */
    record NothingToStore(ConversationReport report) implements Plan {}

    record PlannedTurn(Role role, String text, Instant occurredAt) {}

    private ConversationPlanner() {}

    /**
     * The runs of the conversation still to store, given the parts of it that are stored (in any order), or the
     * report of a conversation with nothing to store.
     */
    static Plan plan(
            int position,
            ExportedConversation conversation,
            List<ConversationImports.Part> stored,
            Instant latestAllowed,
            ImportLimits limits) {
        String title = ExportedText.title(conversation.title());
        String refusal = conversation.refusal() != null
                ? conversation.refusal()
                : ExportedText.idProblem("its id", conversation.id());
        if (refusal != null) {
            return refused(conversation, title, refusal);
        }
        List<Message> messages = dated(conversation);
        boolean[] held = new boolean[messages.size()];
        refusal = markStored(messages, stored, held);
        if (refusal != null) {
            return refused(conversation, title, refusal);
        }
        List<int[]> spans = notHeld(held);
        if (spans.isEmpty()) {
            return new NothingToStore(unchanged(conversation.id(), title));
        }
        Tally tally = new Tally();
        List<Run> runs = new ArrayList<>();
        refusal = addRuns(messages, spans, latestAllowed, limits, tally, runs);
        if (refusal != null) {
            return refused(conversation, title, refusal);
        }
        int turnCount = runs.stream().mapToInt(run -> run.turns().size()).sum();
        if (turnCount > limits.maxTurnsPerConversation()) {
            return refused(
                    conversation,
                    title,
                    "it becomes " + turnCount + " turns, more than a conversation may "
                            + "(memoir.imports.max-turns-per-conversation: " + limits.maxTurnsPerConversation()
                            + ")");
        }
        ConversationReport report = imported(conversation, title, runs, tally, turnCount);
        if (runs.isEmpty()) {
            return new NothingToStore(report.notStored(
                    Status.EMPTY,
                    "none of its " + (stored.isEmpty() ? "" : "new ") + "messages is a turn of the dialogue"));
        }
        return new Planned(position, conversation.id(), title, runs, report);
    }

    private static NothingToStore refused(ExportedConversation conversation, String title, String refusal) {
        return new NothingToStore(ConversationReport.refused(ExportedText.echoed(conversation.id()), title, refusal));
    }

    /**
     * Marks the messages the stored parts hold; answers why the conversation is refused, or null. The newest part
     * first: when a message before all of them was edited, its last message is the one named.
     */
    private static String markStored(List<Message> messages, List<ConversationImports.Part> stored, boolean[] held) {
        List<ConversationImports.Part> newestFirst = new ArrayList<>(stored);
        newestFirst.sort(Comparator.comparingInt(ConversationImports.Part::to).reversed());
        for (ConversationImports.Part part : newestFirst) {
            int last = lastIndexOf(messages, part.lastMessageId());
            int first = last + 1 - (part.to() - part.from());
            if (last < 0 || first < 0) {
                return "message " + part.lastMessageId() + ", the last one an earlier import stored of a part, is "
                        + "not on the dialogue the export holds now (a message before it was edited): the "
                        + "messages still to store cannot be told from those stored";
            }
            for (int i = first; i <= last; i++) {
                held[i] = true;
            }
        }
        return null;
    }

    /** Adds a run for each span of messages not stored that holds turns; answers why the conversation is refused. */
    private static String addRuns(
            List<Message> messages,
            List<int[]> spans,
            Instant latestAllowed,
            ImportLimits limits,
            Tally tally,
            List<Run> runs) {
        for (int[] span : spans) {
            List<PlannedTurn> turns = new ArrayList<>();
            String refusal = turns(messages.subList(span[0], span[1]), latestAllowed, limits, tally, turns);
            if (refusal != null) {
                return refusal;
            }
            String lastId = messages.get(span[1] - 1).id();
            String problem = ExportedText.idProblem("the id of the last message to store", lastId);
            if (problem != null) {
                return problem;
            }
            if (!turns.isEmpty()) {
                runs.add(new Run(span[0], span[1], lastId, turns));
            }
        }
        return null;
    }

    private static ConversationReport imported(
            ExportedConversation conversation, String title, List<Run> runs, Tally tally, int turnCount) {
        return new ConversationReport(
                ExportedText.echoed(conversation.id()),
                title,
                Status.IMPORTED,
                null,
                null,
                runs.isEmpty() ? null : runs.getFirst().turns().getFirst().occurredAt(),
                runs.isEmpty() ? null : runs.getLast().turns().getLast().occurredAt(),
                tally.messages,
                turnCount,
                tally.split,
                new Skipped(tally.system, tally.tool, tally.hidden, tally.empty),
                tally.nonText,
                null);
    }

    /** What a conversation's runs hold, over all of them. */
    private static final class Tally {
        int messages, system, tool, hidden, empty, nonText, split;
    }

    /**
     * Adds the messages' turns; answers why the conversation is refused, or null. A message without a role is no turn
     * of the dialogue and is counted by why.
     */
    private static String turns(
            List<Message> messages, Instant latestAllowed, ImportLimits limits, Tally tally, List<PlannedTurn> turns) {
        for (Message message : messages) {
            tally.messages++;
            if (message.occurredAt() != null && message.occurredAt().isAfter(latestAllowed)) {
                return "message " + ExportedText.echoed(message.id()) + " is dated " + message.occurredAt()
                        + ", in the future";
            }
            if (message.role() == null) {
                switch (message.skipped()) {
                    case SYSTEM -> tally.system++;
                    case TOOL -> tally.tool++;
                    case HIDDEN -> tally.hidden++;
                    case EMPTY -> {
                        tally.empty++;
                        tally.nonText += message.nonTextParts();
                    }
                }
                continue;
            }
            tally.nonText += message.nonTextParts();
            if (message.text().length() > limits.maxMessageCharacters()) {
                return "message " + ExportedText.echoed(message.id()) + " has "
                        + message.text().length()
                        + " characters, more than a message may (memoir.imports.max-message-characters: "
                        + limits.maxMessageCharacters() + ")";
            }
            String problem = TextSafety.problem(message.text());
            if (problem != null) {
                return "message " + ExportedText.echoed(message.id()) + ": " + problem;
            }
            if (!TextSafety.hasVisibleCharacter(message.text())) {
                tally.empty++;
                continue;
            }
            List<String> pieces = TurnSplitter.split(message.text(), TURN_LIMIT);
            if (pieces.size() > 1) {
                tally.split++;
            }
            pieces.forEach(piece -> turns.add(new PlannedTurn(message.role(), piece, message.occurredAt())));
        }
        return null;
    }

    private static ConversationReport unchanged(String id, String title) {
        return new ConversationReport(
                ExportedText.echoed(id),
                title,
                Status.UNCHANGED,
                null,
                null,
                null,
                null,
                0,
                0,
                0,
                Skipped.NONE,
                0,
                "nothing new since an earlier import");
    }

    /** The runs of positions that no stored part holds, as [from, to). */
    private static List<int[]> notHeld(boolean[] held) {
        List<int[]> spans = new ArrayList<>();
        for (int i = 0; i < held.length; ) {
            if (held[i]) {
                i++;
                continue;
            }
            int from = i;
            while (i < held.length && !held[i]) {
                i++;
            }
            spans.add(new int[] {from, i});
        }
        return spans;
    }

    private static int lastIndexOf(List<Message> messages, String id) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).id().equals(id)) {
                return i;
            }
        }
        return -1;
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
}
