package dev.memoir.archive.dataexport;

import java.util.ArrayList;
import java.util.List;

import dev.memoir.common.wire.TextSafety;

/**
 * Splits a message longer than a turn may be into consecutive pieces of at most the limit: at paragraph boundaries
 * (blank lines), a paragraph longer than the limit at line breaks, then at spaces, and a word longer than the
 * limit where it must (never inside a surrogate pair). Pieces without visible text are dropped.
 */
final class TurnSplitter {

    private TurnSplitter() {}

    static List<String> split(String text, int limit) {
        if (text.length() <= limit) {
            return List.of(text);
        }
        List<String> pieces = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String paragraph : text.split("\n\n")) {
            for (String chunk : chunks(paragraph, limit)) {
                if (!current.isEmpty() && current.length() + 2 + chunk.length() > limit) {
                    add(pieces, current);
                }
                if (!current.isEmpty()) {
                    current.append("\n\n");
                }
                current.append(chunk);
            }
        }
        add(pieces, current);
        return pieces;
    }

    private static void add(List<String> pieces, StringBuilder current) {
        String piece = current.toString().strip();
        if (TextSafety.hasVisibleCharacter(piece)) {
            pieces.add(piece);
        }
        current.setLength(0);
    }

    /**
     * A paragraph as pieces of at most the limit, cut at the last line break, else space, before the limit. Each cut
     * looks back at most the limit from where the piece starts, and the rest is never copied: linear in the
     * paragraph, however long its words.
     */
    private static List<String> chunks(String paragraph, int limit) {
        List<String> chunks = new ArrayList<>();
        int start = 0;
        while (paragraph.length() - start > limit) {
            int end = start + limit;
            int cut = lastIndexOf(paragraph, '\n', end, start);
            if (cut <= start) {
                cut = lastIndexOf(paragraph, ' ', end, start);
            }
            if (cut <= start) {
                cut = Character.isLowSurrogate(paragraph.charAt(end)) ? end - 1 : end;
            }
            chunks.add(paragraph.substring(start, cut));
            start = cut;
            while (start < paragraph.length() && Character.isWhitespace(paragraph.charAt(start))) {
                start++;
            }
        }
        chunks.add(paragraph.substring(start));
        return chunks;
    }

    /** The last index of the character at or before {@code from} and after {@code after}, or {@code after}. */
    private static int lastIndexOf(String text, char character, int from, int after) {
        for (int i = from; i > after; i--) {
            if (text.charAt(i) == character) {
                return i;
            }
        }
        return after;
    }
}
