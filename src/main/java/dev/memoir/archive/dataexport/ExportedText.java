package dev.memoir.archive.dataexport;

import dev.memoir.common.wire.TextSafety;

/** The texts of an export that an import keeps or echoes: ids (the import's key) and titles, each bounded. */
public final class ExportedText {

    /** Characters of a title kept. */
    public static final int TITLE_LIMIT = 500;
    /** Ids are the import's key: one line of text, of a sensible length. */
    static final int ID_LIMIT = 200;
    /** Characters of a longer id that a report echoes. */
    private static final int ECHOED_ID = 100;

    private ExportedText() {}

    /** Whether the id can be an import's key: text of at most {@link #ID_LIMIT} characters. */
    static boolean isKey(String id) {
        return id != null && idProblem("", id) == null;
    }

    static String idProblem(String what, String id) {
        String problem = TextSafety.problem(id);
        if (problem != null) {
            return what + " " + problem;
        }
        return id.length() > ID_LIMIT ? what + " is longer than " + ID_LIMIT + " characters" : null;
    }

    /**
     * An id as a report or a reason echoes it: whole up to the limit of an id, else its beginning and "…"; none when
     * it is not text that can be shown.
     */
    public static String echoed(String id) {
        if (id == null || TextSafety.problem(id) != null) {
            return null;
        }
        if (id.length() <= ID_LIMIT) {
            return id;
        }
        return cut(id, ECHOED_ID) + "…";
    }

    /** The title as a session keeps it: visible text, stripped, at most {@link #TITLE_LIMIT} characters. */
    static String title(String title) {
        if (title == null || !TextSafety.hasVisibleCharacter(title) || TextSafety.problem(title) != null) {
            return null;
        }
        return cut(title.strip(), TITLE_LIMIT);
    }

    /** At most {@code limit} characters, never ending inside a surrogate pair. */
    static String cut(String text, int limit) {
        if (text.length() <= limit) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(limit - 1)) ? limit - 1 : limit;
        return text.substring(0, end);
    }
}
