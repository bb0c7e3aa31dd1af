package dev.memoir.archive.api;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;

@Schema(
        description = "What an import of a ChatGPT or Claude data export did, conversation by conversation, in the "
                + "order of the export")
public record ExportReport(
        @Schema(example = "chatgpt") ExportSource source,

        @Schema(description = "Conversations the export holds")
        int conversations,

        @Schema(
                description = "Conversations that became a session (a whole one, or the messages added since an "
                        + "earlier import)")
        int imported,

        @Schema(description = "Conversations with nothing new since an earlier import")
        int unchanged,

        @Schema(description = "Conversations whose new messages hold no turn of the dialogue")
        int empty,

        @Schema(description = "Conversations that could not be imported; each says why")
        int refused,

        @Schema(description = "Turns stored, over all sessions")
        long turns,

        List<ConversationReport> items) {

    public static ExportReport of(ExportSource source, List<ConversationReport> items) {
        return new ExportReport(
                source,
                items.size(),
                count(items, Status.IMPORTED),
                count(items, Status.UNCHANGED),
                count(items, Status.EMPTY),
                count(items, Status.REFUSED),
                items.stream().mapToLong(ConversationReport::turns).sum(),
                items);
    }

    private static int count(List<ConversationReport> items, Status status) {
        return (int) items.stream().filter(i -> i.status() == status).count();
    }

    public enum Status {
        IMPORTED,
        UNCHANGED,
        EMPTY,
        REFUSED;

        @JsonValue
        String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    @Schema(description = "One conversation of the export")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ConversationReport(
            @Schema(
                    description = "The export's id of the conversation (ChatGPT's conversation_id, Claude's uuid): "
                            + "the import's key")
            String conversationId,

            @Schema(description = "Its title in the export") String title,

            @Schema(
                    description = "imported, unchanged (nothing new since an earlier import), empty (no new message "
                            + "is a turn of the dialogue) or refused (see reason)",
                    example = "imported")
            Status status,

            @Schema(
                    description = "The closed session that holds it; its close memories are written by background "
                            + "jobs, whose progress GET /sessions/{id} shows")
            UUID sessionId,

            @Schema(
                    description = "Every session stored for it, in dialogue order, when there are several: besides "
                            + "its new messages, those of a part an earlier import stored whose session was deleted "
                            + "since, each in a session of its own")
            List<UUID> sessionIds,

            @Schema(description = "When the imported dialogue began and ended")
            Instant dialogueFrom,

            Instant dialogueTo,

            @Schema(
                    description = "Messages of its dialogue path read this time: all of them, or those after the "
                            + "last message an earlier import stored")
            int messages,

            @Schema(description = "Turns stored") int turns,

            @Schema(
                    description = "Messages longer than a turn may be (32000 characters), each stored as "
                            + "consecutive turns of the same speaker split at paragraph boundaries")
            int splitMessages,

            @Schema(description = "Messages that are not turns of the dialogue, by why")
            Skipped skipped,

            @Schema(
                    description = "Parts of messages that are not text (images, files, attachments, tool blocks), "
                            + "left out of the turns")
            int nonTextParts,

            @Schema(description = "Why it was refused, or why nothing was stored")
            String reason) {

        /** A refused conversation, under its id as the report echoes it (whole up to an id's limit, else cut). */
        public static ConversationReport refused(String echoedId, String title, String reason) {
            return new ConversationReport(
                    echoedId, title, Status.REFUSED, null, null, null, null, 0, 0, 0, Skipped.NONE, 0, reason);
        }

        public ConversationReport stored(List<UUID> sessionIds) {
            return new ConversationReport(
                    conversationId,
                    title,
                    Status.IMPORTED,
                    sessionIds.getFirst(),
                    sessionIds.size() > 1 ? List.copyOf(sessionIds) : null,
                    dialogueFrom,
                    dialogueTo,
                    messages,
                    turns,
                    splitMessages,
                    skipped,
                    nonTextParts,
                    null);
        }

        public ConversationReport notStored(Status status, String why) {
            return new ConversationReport(
                    conversationId,
                    title,
                    status,
                    null,
                    null,
                    dialogueFrom,
                    dialogueTo,
                    messages,
                    status == Status.REFUSED || status == Status.UNCHANGED ? 0 : turns,
                    splitMessages,
                    skipped,
                    nonTextParts,
                    why);
        }
    }

    @Schema(
            description = "Skipped messages by why: system prompts and custom instructions, tool calls and outputs, "
                    + "messages the export marks hidden (and the model's thoughts), messages without visible text")
    public record Skipped(int system, int tool, int hidden, int empty) {
        public static final Skipped NONE = new Skipped(0, 0, 0, 0);
    }
}
