package dev.memoir.common.web;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A page cursor: the sort key of the last row a page showed, which the next page continues after (keyset paging,
 * so rows added meanwhile neither shift the pages nor show twice). To clients it is an opaque base64url token; it
 * names the list it belongs to, so a cursor of one list given to another is refused like any garbled one, with
 * 400 naming {@code cursor}.
 */
public final class Cursor {

    public static final String PARAMETER = "cursor";

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private final List<String> key;

    private Cursor(List<String> key) {
        this.key = key;
    }

    /** The token for a row's sort key in the named list. */
    public static String encode(String list, Object... key) {
        List<String> parts = new ArrayList<>(key.length + 1);
        parts.add(list);
        for (Object part : key) {
            parts.add(String.valueOf(part));
        }
        return ENCODER.encodeToString(JSON.writeValueAsBytes(parts));
    }

    /** The sort key in a token given by a client; null when the client gave none (the first page). */
    public static Cursor decode(String token, String list, int keyParts) {
        if (token == null || token.isEmpty()) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        try {
            JsonNode node = JSON.readTree(DECODER.decode(token.getBytes(StandardCharsets.US_ASCII)));
            if (node == null || !node.isArray()) {
                throw invalid();
            }
            for (JsonNode part : node) {
                if (!part.isString()) {
                    throw invalid();
                }
                parts.add(part.asString());
            }
        } catch (IllegalArgumentException | JacksonException e) {
            throw invalid();
        }
        if (parts.size() != keyParts + 1 || !parts.getFirst().equals(list)) {
            throw invalid();
        }
        return new Cursor(List.copyOf(parts.subList(1, parts.size())));
    }

    /** One page's rows and the cursor of the next page, null when this is the last one. */
    public record Page<T>(List<T> items, String nextCursor) {}

    /**
     * The page made of rows fetched one past the limit: the extra row only tells that another page follows, whose
     * cursor is the last shown row's sort key.
     */
    public static <T> Page<T> page(List<T> fetched, int limit, Function<T, String> cursorOf) {
        if (fetched.size() <= limit) {
            return new Page<>(List.copyOf(fetched), null);
        }
        List<T> shown = List.copyOf(fetched.subList(0, limit));
        return new Page<>(shown, cursorOf.apply(shown.getLast()));
    }

    /** Refuses the cursor unless a part of its key is what this request expects (the cursor of another list). */
    public Cursor requiring(int index, Object expected) {
        if (!key.get(index).equals(String.valueOf(expected))) {
            throw invalid();
        }
        return this;
    }

    public String text(int index) {
        return key.get(index);
    }

    public Instant instant(int index) {
        Instant instant;
        try {
            instant = Instant.parse(key.get(index));
        } catch (DateTimeParseException e) {
            throw invalid();
        }
        // A cursor is the client's to garble: one beyond what PostgreSQL stores would fail in the query.
        if (!StorableInstants.storable(instant)) {
            throw invalid();
        }
        return instant;
    }

    public UUID uuid(int index) {
        try {
            return UUID.fromString(key.get(index));
        } catch (IllegalArgumentException e) {
            throw invalid();
        }
    }

    public int integer(int index) {
        try {
            return Integer.parseInt(key.get(index));
        } catch (NumberFormatException e) {
            throw invalid();
        }
    }

    public long longValue(int index) {
        try {
            return Long.parseLong(key.get(index));
        } catch (NumberFormatException e) {
            throw invalid();
        }
    }

    private static InvalidRequestException invalid() {
        return new InvalidRequestException(
                PARAMETER,
                "is not a cursor this list gave; pass nextCursor from the "
                        + "previous page as it was, or omit it for the first page");
    }
}
