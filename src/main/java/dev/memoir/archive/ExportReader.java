package dev.memoir.archive;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipInputStream;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;

/**
 * Streams the conversations of an export's {@code conversations.json}, sent as it is or inside the export's zip (read
 * as it arrives, the first {@code conversations.json} entry at any depth), one conversation at a time: an export of
 * any size passes through a heap that holds its largest conversation. Anything that keeps the file from being read
 * as a whole (not JSON or not UTF-8, not an array of objects, cut short, a zip without the file, the other
 * assistant's export) is an {@link InvalidExportException}.
 */
final class ExportReader {

    private static final byte[] ZIP = {'P', 'K', 3, 4};

    private ExportReader() {}

    static void read(InputStream body, ExportSource source, JsonMapper json, Consumer<ExportedConversation> each)
            throws IOException {
        BufferedInputStream in = new BufferedInputStream(body, 1 << 16);
        in.mark(ZIP.length);
        byte[] start = in.readNBytes(ZIP.length);
        in.reset();
        if (!Arrays.equals(start, ZIP)) {
            conversations(in, source, json, each);
            return;
        }
        ZipInputStream zip = new ZipInputStream(in);
        try {
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                String name = entry.getName();
                if (!entry.isDirectory()
                        && (name.equals("conversations.json") || name.endsWith("/conversations.json"))) {
                    conversations(zip, source, json, each);
                    return;
                }
            }
        } catch (ZipException e) {
            throw new InvalidExportException(source, "a zip that cannot be read (" + e.getMessage() + ")");
        }
        throw new InvalidExportException(source, "a zip without conversations.json");
    }

    private static void conversations(
            InputStream in, ExportSource source, JsonMapper json, Consumer<ExportedConversation> each) {
        int index = 0;
        // One conversation at a time out of the array, which goes on after it.
        ObjectReader reader = json.readerFor(JsonNode.class).without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        // Strict UTF-8: Jackson's own decoding reads an overlong sequence as another character (C0 AF as '/').
        Reader text = new InputStreamReader(
                in,
                StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT));
        try (JsonParser parser = json.createParser(text)) {
            JsonToken token = parser.nextToken();
            if (token == null) {
                throw new InvalidExportException(source, "conversations.json is empty");
            }
            if (token != JsonToken.START_ARRAY) {
                throw new InvalidExportException(
                        source,
                        "conversations.json holds an array of conversations, and " + "this one holds "
                                + describe(token));
            }
            for (token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
                if (token == null) {
                    throw new InvalidExportException(
                            source, "conversations.json is cut short after " + index + " conversations");
                }
                if (token != JsonToken.START_OBJECT) {
                    throw new InvalidExportException(
                            source, "conversation [" + index + "] is " + describe(token) + ", not an object");
                }
                JsonNode conversation = reader.readValue(parser);
                if (index == 0) {
                    requireSource(conversation, source);
                }
                each.accept(
                        source == ExportSource.CHATGPT
                                ? ChatGptExport.read(conversation)
                                : ClaudeExport.read(conversation));
                index++;
            }
            if (parser.nextToken() != null) {
                throw new InvalidExportException(source, "conversations.json goes on after its array");
            }
        } catch (JacksonException e) {
            if (e.getCause() instanceof CharacterCodingException) {
                // Decoded ahead of the parser, so no conversation can be named.
                throw new InvalidExportException(
                        source,
                        "conversations.json is not UTF-8: an export is strict "
                                + "UTF-8, without overlong or broken sequences");
            }
            TokenStreamLocation at = e.getLocation();
            throw new InvalidExportException(
                    source,
                    "conversations.json cannot be read as JSON in conversation ["
                            + index + "]"
                            + (at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")")
                            + ": " + firstLine(e.getOriginalMessage()));
        }
    }

    /** The first conversation tells which assistant made the export; the wrong endpoint is said at once. */
    private static void requireSource(JsonNode conversation, ExportSource source) {
        boolean chatGpt = ChatGptExport.looksLikeIt(conversation);
        boolean claude = ClaudeExport.looksLikeIt(conversation);
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
