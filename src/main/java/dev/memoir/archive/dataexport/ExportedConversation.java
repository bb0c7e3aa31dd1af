package dev.memoir.archive.dataexport;

import java.time.Instant;
import java.util.List;

import dev.memoir.session.api.Role;

/**
 * One conversation of a data export as Memoir reads it, whatever the assistant: the messages of its dialogue path
 * in order (for ChatGPT the branch the user ended on), each either dialogue (a role and its text) or skipped (why).
 * A conversation that cannot be read has a {@code refusal} and no messages. Written to and read from the import's
 * spool file as JSON, so that only one conversation is held at a time.
 */
record ExportedConversation(String id, String title, Instant createdAt, List<Message> messages, String refusal) {

    static ExportedConversation refused(String id, String title, String refusal) {
        return new ExportedConversation(id, title, null, List.of(), refusal);
    }

    /**
     * A message on the dialogue path. {@code role} is set for a turn of the dialogue, null for a skipped message,
     * whose {@code skipped} says why; {@code nonTextParts} counts
     * its parts that are not text (images, files, tool blocks), which are left out of its text.
     */
    record Message(String id, Role role, String text, Instant occurredAt, Skip skipped, int nonTextParts) {

        static Message dialogue(String id, Role role, String text, Instant occurredAt, int nonTextParts) {
            return new Message(id, role, text, occurredAt, null, nonTextParts);
        }

        static Message skipped(String id, Skip why, Instant occurredAt, int nonTextParts) {
            return new Message(id, null, null, occurredAt, why, nonTextParts);
        }

        Message at(Instant time) {
            return new Message(id, role, text, time, skipped, nonTextParts);
        }
    }

    /** Why a message is not a turn of the dialogue. */
    enum Skip {
        /** A system prompt or the user's custom instructions. */
        SYSTEM,
        /** A tool's call or output (code run, browsing, plugins, Claude's tool blocks). */
        TOOL,
        /** Marked hidden by the export (ChatGPT's is_visually_hidden_from_conversation), or the model's thoughts. */
        HIDDEN,
        /** No visible text: empty, only spaces, or only parts that are not text. */
        EMPTY
    }
}
