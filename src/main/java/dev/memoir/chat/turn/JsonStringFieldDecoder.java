package dev.memoir.chat.turn;

/**
 * Decodes one string field of a JSON object while the object's text is still arriving in pieces, so that a
 * streamed model answer's {@code reply} can be shown as the model writes it. Only a field of the top-level object
 * counts (a nested object's field of the same name does not), and only its first occurrence; text before the first
 * {@code '{'} is skipped, as {@link dev.memoir.llm.LenientJson} skips it. An escape split across pieces (a
 * backslash ending one piece, {@code u00e9} starting the next) is held until it is complete. The decoder does not
 * validate the JSON: the whole answer is parsed once it is complete, and that parse decides whether it is usable.
 */
final class JsonStringFieldDecoder {

    private final String field;

    /** 0 before the top-level object, 1 inside it, more inside nested objects and arrays. */
    private int depth;

    private boolean closed;
    private boolean inString;
    private boolean stringIsKey;
    private boolean capturing;
    private boolean found;
    /** At depth 1: the next string is a key (after '{' or ','), or the next token is a value (after ':'). */
    private boolean expectKey;

    private boolean expectValue;
    private String lastKey;
    private final StringBuilder key = new StringBuilder();
    /** An escape sequence not complete yet, starting with its backslash; empty when none is pending. */
    private final StringBuilder escape = new StringBuilder();

    JsonStringFieldDecoder(String field) {
        this.field = field;
    }

    /** Reads the next piece of the JSON text and answers the field's text decoded from it (empty when none). */
    String feed(CharSequence piece) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < piece.length() && !closed; i++) {
            char c = piece.charAt(i);
            if (inString) {
                inString(c, out);
            } else {
                outsideString(c);
            }
        }
        return out.toString();
    }

    /** Whether the field's value has been read to its closing quote. */
    boolean complete() {
        return found;
    }

    private void inString(char c, StringBuilder out) {
        if (!escape.isEmpty()) {
            escape.append(c);
            if (escape.charAt(1) != 'u') {
                emit(unescape(escape.charAt(1)), out);
                escape.setLength(0);
            } else if (escape.length() == 6) {
                int code = hex(escape.substring(2));
                if (code >= 0) {
                    emit((char) code, out);
                }
                escape.setLength(0);
            }
            return;
        }
        if (c == '\\') {
            escape.append(c);
        } else if (c == '"') {
            inString = false;
            if (stringIsKey) {
                lastKey = key.toString();
            } else if (capturing) {
                capturing = false;
                found = true;
            }
        } else {
            emit(c, out);
        }
    }

    private void emit(char c, StringBuilder out) {
        if (stringIsKey) {
            key.append(c);
        } else if (capturing) {
            out.append(c);
        }
    }

    private void outsideString(char c) {
        if (depth == 0) {
            if (c == '{') {
                depth = 1;
                expectKey = true;
            }
            return;
        }
        if (Character.isWhitespace(c)) {
            return;
        }
        boolean valueStarts = depth == 1 && expectValue;
        if (valueStarts) {
            expectValue = false;
        }
        switch (c) {
            case '"' -> {
                inString = true;
                stringIsKey = depth == 1 && expectKey;
                key.setLength(0);
                capturing = valueStarts && !found && field.equals(lastKey);
                expectKey = false;
            }
            case '{', '[' -> depth++;
            case '}', ']' -> {
                depth--;
                closed = depth == 0;
            }
            case ':' -> {
                if (depth == 1) {
                    expectValue = true;
                }
            }
            case ',' -> {
                if (depth == 1) {
                    expectKey = true;
                    lastKey = null;
                }
            }
            default -> {
                // A number, true, false or null: nothing to decode.
            }
        }
    }

    private static char unescape(char c) {
        return switch (c) {
            case 'n' -> '\n';
            case 't' -> '\t';
            case 'r' -> '\r';
            case 'b' -> '\b';
            case 'f' -> '\f';
            default -> c;
        };
    }

    private static int hex(String digits) {
        int value = 0;
        for (int i = 0; i < digits.length(); i++) {
            int digit = Character.digit(digits.charAt(i), 16);
            if (digit < 0) {
                return -1;
            }
            value = value * 16 + digit;
        }
        return value;
    }
}
