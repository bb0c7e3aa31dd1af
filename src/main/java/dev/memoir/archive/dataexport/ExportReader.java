package dev.memoir.archive.dataexport;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.function.Consumer;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipInputStream;

import dev.memoir.archive.api.ExportSource;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;

/**
 * Streams the conversations of an export's {@code conversations.json}, sent as it is or inside the export's zip (read
 * as it arrives, the first {@code conversations.json} entry at any depth), one conversation at a time: an export
 * passes through a heap that holds one conversation, of at most {@code memoir.imports.max-conversation-size}, and no
 * string longer than a message may be ({@link ImportLimits}). Anything that keeps the file from being read
 * as a whole (not JSON or not UTF-8, not an array of objects, cut short, a zip without the file, the other
 * assistant's export) is an {@link InvalidExportException}.
 */
final class ExportReader {

    private static final byte[] ZIP = {'P', 'K', 3, 4};
    private static final Charset ZIP_NAMES = Charset.forName("IBM437");

    private ExportReader() {}

    static void read(InputStream body, ExportSource source, ImportLimits limits, Consumer<ExportedConversation> each)
            throws IOException {
        BufferedInputStream in = new BufferedInputStream(body, 1 << 16);
        in.mark(ZIP.length);
        byte[] start = in.readNBytes(ZIP.length);
        in.reset();
        if (!Arrays.equals(start, ZIP)) {
            conversations(in, source, limits, each);
            return;
        }
        // Entry names without the zip's UTF-8 flag are read as the zip format's own code page (CP437), which every
        // byte decodes in: a zip made again by an archiver that writes names in another code page is still read.
        ZipInputStream zip = new ZipInputStream(in, ZIP_NAMES);
        try {
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                if (!entry.isDirectory() && isConversations(entry.getName())) {
                    conversations(zip, source, limits, each);
                    return;
                }
            }
        } catch (ZipException e) {
            throw new InvalidExportException(source, "a zip that cannot be read (" + e.getMessage() + ")");
        }
        throw new InvalidExportException(source, "a zip without conversations.json");
    }

    /** {@code conversations.json} at any depth, with / or \ between folders (Windows archivers write the latter). */
    static boolean isConversations(String entryName) {
        String name = entryName.replace('\\', '/');
        int slash = name.lastIndexOf('/');
        return name.substring(slash + 1).equalsIgnoreCase("conversations.json");
    }

    private static void conversations(
            InputStream raw, ExportSource source, ImportLimits limits, Consumer<ExportedConversation> each) {
        CountingReader text = strictText(raw, source, limits);
        JsonMapper json = mapper(limits);
        // One conversation at a time out of the array, which goes on after it.
        ObjectReader reader = json.readerFor(JsonNode.class).without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        int index = 0;
        try (JsonParser parser = json.createParser(text)) {
            openArray(parser.nextToken(), source);
            for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
                startConversation(token, index, source, limits);
                int position = index;
                text.conversationFromHere(
                        limits.maxConversationSize().toBytes(),
                        elementLimit(limits),
                        () -> new InvalidExportException(
                                source,
                                "conversation [" + position + "] is larger than "
                                        + ImportLimits.spelled(limits.maxConversationSize())
                                        + " of JSON (memoir.imports.max-conversation-size)"),
                        () -> new InvalidExportException(
                                source,
                                "conversation [" + position + "] has a message or field larger than "
                                        + elementLimit(limits) + " characters of JSON (eight times "
                                        + "memoir.imports.max-message-characters)"));
                ExportedConversation conversation = read(parser, reader, text, source, index == 0);
                text.conversationDone();
                each.accept(conversation);
                index++;
            }
            if (parser.nextToken() != null) {
                throw new InvalidExportException(source, "conversations.json goes on after its array");
            }
        } catch (JacksonException e) {
            throw unreadable(e, source, limits, index);
        }
    }

    /**
     * conversations.json's text, no larger than the export may be once decompressed, decoded as strict UTF-8:
     * Jackson's own decoding reads an overlong sequence as another character (C0 AF as '/').
     */
    private static CountingReader strictText(InputStream raw, ExportSource source, ImportLimits limits) {
        InputStream in = new BoundedInputStream(
                raw,
                limits.maxExportSize().toBytes(),
                () -> new InvalidExportException(
                        source,
                        "conversations.json is larger than " + ImportLimits.spelled(limits.maxExportSize())
                                + " once decompressed " + "(memoir.imports.max-export-size)"));
        return new CountingReader(new InputStreamReader(
                in,
                StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)));
    }

    private static void openArray(JsonToken token, ExportSource source) {
        if (token == null) {
            throw new InvalidExportException(source, "conversations.json is empty");
        }
        if (token != JsonToken.START_ARRAY) {
            throw new InvalidExportException(
                    source,
                    "conversations.json holds an array of conversations, and " + "this one holds " + describe(token));
        }
    }

    /** Refuses what cannot start conversation {@code index}: the array's end missing, no object, one too many. */
    private static void startConversation(JsonToken token, int index, ExportSource source, ImportLimits limits) {
        if (token == null) {
            throw new InvalidExportException(
                    source, "conversations.json is cut short after " + index + " conversations");
        }
        if (token != JsonToken.START_OBJECT) {
            throw new InvalidExportException(
                    source, "conversation [" + index + "] is " + describe(token) + ", not an object");
        }
        if (index == limits.maxConversations()) {
            throw new InvalidExportException(
                    source,
                    "it holds more than " + limits.maxConversations()
                            + " conversations (memoir.imports.max-conversations)");
        }
    }

    /** What the parser's failure in conversation {@code index} tells the client. */
    private static InvalidExportException unreadable(
            JacksonException e, ExportSource source, ImportLimits limits, int index) {
        if (e instanceof StreamConstraintsException) {
            if (e.getMessage() == null || !e.getMessage().startsWith("String value length")) {
                return new InvalidExportException(
                        source, "conversation [" + index + "] " + firstLine(e.getOriginalMessage()));
            }
            return new InvalidExportException(
                    source,
                    "conversation [" + index + "] holds a text longer than " + limits.maxMessageCharacters()
                            + " characters, more than a message may have (memoir.imports.max-message-characters)");
        }
        if (e.getCause() instanceof InvalidExportException limit) {
            return limit;
        }
        if (e.getCause() instanceof CharacterCodingException) {
            // Decoded ahead of the parser, so no conversation can be named.
            return new InvalidExportException(
                    source,
                    "conversations.json is not UTF-8: an export is strict "
                            + "UTF-8, without overlong or broken sequences");
        }
        TokenStreamLocation at = e.getLocation();
        return new InvalidExportException(
                source,
                "conversations.json cannot be read as JSON in conversation ["
                        + index + "]"
                        + (at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")")
                        + ": " + firstLine(e.getOriginalMessage()));
    }

    /**
     * A parser that refuses a string longer than a message may be as it reads it, so that no string beyond that
     * limit is ever held.
     */
    private static JsonMapper mapper(ImportLimits limits) {
        return JsonMapper.builder(JsonFactory.builder()
                        .streamReadConstraints(StreamReadConstraints.builder()
                                .maxStringLength(limits.maxMessageCharacters())
                                .build())
                        .build())
                .build();
    }

    /**
     * One conversation, whose {@code START_OBJECT} is the parser's current token, read as it streams in the shape of
     * the source's export; the first one tells whether the export is the source's at all.
     */
    private static ExportedConversation read(
            JsonParser parser, ObjectReader values, CountingReader text, ExportSource source, boolean first) {
        if (source == ExportSource.CHATGPT) {
            ConversationStream<ChatGptExport.KeyedNode> conversation = ConversationStream.read(
                    parser, values, text, ChatGptExport.MESSAGES, ChatGptExport.FIELDS, ChatGptExport::node);
            if (first) {
                requireSource(conversation.names(), source);
            }
            return ChatGptExport.read(conversation);
        }
        ConversationStream<ClaudeExport.Item> conversation = ConversationStream.read(
                parser, values, text, ClaudeExport.MESSAGES, ClaudeExport.FIELDS, ClaudeExport::item);
        if (first) {
            requireSource(conversation.names(), source);
        }
        return ClaudeExport.read(conversation);
    }

    /**
     * Characters of JSON one element of a conversation (a ChatGPT node, a Claude message, a field) may take: room for
     * a message at its limit written with every character escaped ({@code \\uXXXX}), and its metadata.
     */
    static long elementLimit(ImportLimits limits) {
        return Math.max(1L << 20, 8L * limits.maxMessageCharacters());
    }

    /** The first conversation tells which assistant made the export; the wrong endpoint is said at once. */
    private static void requireSource(Set<String> names, ExportSource source) {
        boolean chatGpt = ChatGptExport.looksLikeIt(names);
        boolean claude = ClaudeExport.looksLikeIt(names);
        if (source == ExportSource.CHATGPT && claude && !chatGpt) {
            throw new InvalidExportException(
                    source,
                    "it is a Claude export (its conversations have chat_messages, "
                            + "not a mapping): send it to POST /users/{userId}/import/claude");
        }
        if (source == ExportSource.CLAUDE && chatGpt && !claude) {
            throw new InvalidExportException(
                    source,
                    "it is a ChatGPT export (its conversations have a mapping, "
                            + "not chat_messages): send it to POST /users/{userId}/import/chatgpt");
        }
    }

    private static String describe(JsonToken token) {
        return switch (token) {
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NULL -> "null";
            default -> token.name();
        };
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }
}
