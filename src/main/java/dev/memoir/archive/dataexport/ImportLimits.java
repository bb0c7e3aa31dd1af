package dev.memoir.archive.dataexport;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The limits of a ChatGPT or Claude export's import ({@code memoir.imports.*}), each checked before the work it bounds
 * is done: what is read (the decompressed size, the conversations), what one conversation holds in the heap, and
 * what is stored (a message's characters, a conversation's turns). The body itself is bounded by
 * {@code memoir.api.max-archive-size}.
 *
 * @param maxExportSize           bytes of {@code conversations.json} once decompressed; a larger export is refused
 *                                whole (400)
 * @param maxConversationSize     characters of one conversation's JSON, which the heap holds at once; a larger one
 *                                refuses the export whole (400)
 * @param maxConversations        conversations in one export; more refuse it whole (400)
 * @param maxMessageCharacters    characters of one message's text; a conversation with a longer message (one to
 *                                store) is refused in the report; a single JSON string longer than this refuses the
 *                                export whole (400), since no message part can hold it
 * @param maxTurnsPerConversation turns one conversation may become (long messages split); more refuse it in the report
 */
@Validated
@ConfigurationProperties("memoir.imports")
record ImportLimits(
        @DefaultValue("256MB") @NotNull DataSize maxExportSize,
        @DefaultValue("16MB") @NotNull DataSize maxConversationSize,
        @DefaultValue("50000") @Min(1) int maxConversations,
        @DefaultValue("200000") @Min(1000) int maxMessageCharacters,
        @DefaultValue("10000") @Min(1) int maxTurnsPerConversation) {

    // Bean validation has no constraint for a DataSize.
    ImportLimits {
        if (maxExportSize != null && maxExportSize.toBytes() < 1) {
            throw new IllegalArgumentException(
                    "memoir.imports.max-export-size must be at least 1B, but is " + maxExportSize);
        }
        if (maxConversationSize != null && maxConversationSize.toBytes() < 1024) {
            throw new IllegalArgumentException(
                    "memoir.imports.max-conversation-size must be at least 1KB, but is " + maxConversationSize);
        }
    }

    /** A size as the settings spell it: 256MB, 512KB or 1000B. */
    static String spelled(DataSize size) {
        long bytes = size.toBytes();
        if (bytes % (1L << 30) == 0) {
            return (bytes >> 30) + "GB";
        }
        if (bytes % (1L << 20) == 0) {
            return (bytes >> 20) + "MB";
        }
        if (bytes % (1L << 10) == 0) {
            return (bytes >> 10) + "KB";
        }
        return bytes + "B";
    }
}
