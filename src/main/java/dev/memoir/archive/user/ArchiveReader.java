package dev.memoir.archive.user;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;

import dev.memoir.common.web.ApiException;
import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.memory.api.ArchivedMemory;
import dev.memoir.memory.api.MemoryKind;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads an archive for {@link UserImporter} line by line, as it streams in: each line strict UTF-8, one JSON object
 * of a bounded size, the header of a version this Memoir reads, each record as its type reads it and with its texts
 * within the API's limits. A refusal names the line read last.
 */
final class ArchiveReader {

    /** A line longer than this is refused: a memory's 20,000 characters and its vectors fit many times over. */
    static final int MAX_LINE_BYTES = 8 << 20;

    private final InputStream in;
    private final JsonMapper json;
    // REPORT, not the REPLACE of new String(bytes, UTF_8): an overlong or broken sequence is refused, not read
    // as some other character (C0 AF would be '/').
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    private long line;

    ArchiveReader(InputStream archive, JsonMapper json) {
        this.in = new BufferedInputStream(archive, 1 << 16);
        this.json = json;
    }

    /** The number of the line read last. */
    long line() {
        return line;
    }

    /** Reads the first line, which must be the header of a version this Memoir reads. */
    void readHeader() {
        ObjectNode header = next();
        if (header == null || !ArchiveFormat.HEADER.equals(header.path("type").asString(""))) {
            throw invalid("not a Memoir user archive: the first line must have type " + ArchiveFormat.HEADER);
        }
        JsonNode version = header.path("version");
        // An integer: 1.5 is no version of the format, not version 1.
        if (!version.isIntegralNumber() || !version.canConvertToInt() || version.asInt() != ArchiveFormat.VERSION) {
            throw invalid("archive version " + header.path("version") + " is not one this Memoir reads ("
                    + ArchiveFormat.VERSION + ")");
        }
    }

    /** The next non-blank line as a JSON object; null at the end of the archive. */
    ObjectNode next() {
        byte[] bytes;
        do {
            bytes = readLine();
            if (bytes == null) {
                return null;
            }
            line++;
        } while (isBlank(bytes));
        String text;
        try {
            text = utf8.reset().decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw invalid("not UTF-8: an archive is strict UTF-8, without overlong or broken sequences");
        }
        try {
            JsonNode node = json.readTree(text);
            if (!(node instanceof ObjectNode object)) {
                throw invalid("not a JSON object");
            }
            return object;
        } catch (JacksonException e) {
            throw invalid("not JSON: " + firstLine(e.getOriginalMessage()));
        }
    }

    /** The line just read as the record of its type, given its fields without the type. */
    ArchiveLine record(String type, ObjectNode fields) {
        try {
            ArchiveLine record = ArchiveLine.read(type, fields, json);
            checkTexts(type, record.value());
            String missing = record.missingField();
            if (missing != null) {
                throw invalid("a record without its " + missing);
            }
            String impossible = record.impossibleValue();
            if (impossible != null) {
                throw invalid(impossible);
            }
            return record;
        } catch (DatabindException e) {
            String field = e.getPath().stream()
                    .map(ref -> ref.getPropertyName() != null ? ref.getPropertyName() : "[" + ref.getIndex() + "]")
                    .collect(Collectors.joining("."))
                    .replace(".[", "[");
            throw invalid("a " + type + " that cannot be read: " + (field.isEmpty() ? "" : field + " ")
                    + firstLine(e.getOriginalMessage()));
        } catch (JacksonException | IllegalArgumentException e) {
            throw invalid("a " + type + " that cannot be read: " + firstLine(e.getMessage()));
        } catch (InvalidArchiveException e) {
            throw e;
        } catch (ApiException e) {
            throw invalid("a " + type + " that cannot be read: " + e.getMessage());
        }
    }

    /** The refusal of the archive at the line read last. */
    InvalidArchiveException invalid(String problem) {
        return new InvalidArchiveException("Line " + line + " of the archive: " + problem);
    }

    /**
     * Text within the limits of the API: a fact's as {@code POST /memory} takes it, and every other text within
     * {@link ArchiveFormat#MAX_TEXT}, which the longest text Memoir writes itself fits.
     */
    private void checkTexts(String type, Record archived) {
        if (archived instanceof ArchivedMemory memory) {
            if (memory.text() == null || memory.text().isBlank()) {
                throw invalid("memory " + memory.id() + ": text is missing or blank");
            }
            if (memory.kind() == MemoryKind.FACT && memory.text().length() > FieldConstraints.MEMORY_TEXT) {
                throw invalid("memory " + memory.id() + ": text is "
                        + memory.text().length()
                        + " characters; a fact has at most " + FieldConstraints.MEMORY_TEXT + ", as POST /memory "
                        + "takes it");
            }
        }
        for (RecordComponent component : archived.getClass().getRecordComponents()) {
            if (component.getType() != String.class || component.getName().equals("embedding")) {
                continue;
            }
            String text;
            try {
                text = (String) component.getAccessor().invoke(archived);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
            if (text != null && text.length() > ArchiveFormat.MAX_TEXT) {
                throw invalid("a " + type + "'s " + component.getName() + " is " + text.length()
                        + " characters; an archive's texts have at most " + ArchiveFormat.MAX_TEXT);
            }
        }
    }

    private byte[] readLine() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            while (b >= 0 && b != '\n') {
                if (bytes.size() >= MAX_LINE_BYTES) {
                    line++;
                    throw invalid("longer than " + MAX_LINE_BYTES + " bytes");
                }
                bytes.write(b);
                b = in.read();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static boolean isBlank(byte[] bytes) {
        for (byte b : bytes) {
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    /** The first line of a message, cut to a length a refusal can quote. */
    static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        String first = message.lines().findFirst().orElse("");
        return first.length() > 300 ? first.substring(0, 300) + "…" : first;
    }
}
