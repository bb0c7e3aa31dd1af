package dev.memoir.common.wire;

/**
 * What text Memoir accepts from clients. PostgreSQL cannot store a NUL character, and an unpaired surrogate or
 * U+FFFD (what a decoder leaves of invalid UTF-8) means the client sent bytes that are not text: both are
 * refused at the edge, with the field named, instead of failing deep inside.
 */
public final class TextSafety {

    private TextSafety() {}

    /** Why the text cannot be accepted, or null when it can. */
    public static String problem(String text) {
        if (text == null) {
            return null;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\u0000') {
                return "contains a NUL character";
            }
            if (c == '\uFFFD') {
                return "is not valid UTF-8";
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                    continue;
                }
                return "contains an unpaired surrogate";
            }
            if (Character.isLowSurrogate(c)) {
                return "contains an unpaired surrogate";
            }
        }
        return null;
    }

    /** Whether the text has something a reader can see: a letter, digit, punctuation mark or symbol. */
    public static boolean hasVisibleCharacter(String text) {
        if (text == null) {
            return false;
        }
        return text.codePoints().anyMatch(cp -> switch (Character.getType(cp)) {
            case Character.UNASSIGNED,
                    Character.CONTROL,
                    Character.FORMAT,
                    Character.PRIVATE_USE,
                    Character.SURROGATE,
                    Character.SPACE_SEPARATOR,
                    Character.LINE_SEPARATOR,
                    Character.PARAGRAPH_SEPARATOR,
                    Character.NON_SPACING_MARK,
                    Character.ENCLOSING_MARK,
                    Character.COMBINING_SPACING_MARK -> false;
            default -> !Character.isWhitespace(cp);
        });
    }

    /**
     * Whether an identifier (a user id) is in its one canonical form: no surrounding white space, no control or
     * invisible characters, so that the same id can never be spelt two ways.
     */
    public static boolean isCanonicalIdentifier(String id) {
        if (id == null || id.isEmpty() || !id.equals(id.strip())) {
            return false;
        }
        return id.codePoints().noneMatch(cp -> switch (Character.getType(cp)) {
            case Character.CONTROL,
                    Character.FORMAT,
                    Character.UNASSIGNED,
                    Character.PRIVATE_USE,
                    Character.SURROGATE,
                    Character.LINE_SEPARATOR,
                    Character.PARAGRAPH_SEPARATOR -> true;
            default -> false;
        });
    }
}
