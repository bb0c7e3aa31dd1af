package dev.memoir.archive;

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

    /** A paragraph as pieces of at most the limit, cut at the last line break, else space, before the limit. */
    private static List<String> chunks(String paragraph, int limit) {
        List<String> chunks = new ArrayList<>();
        String rest = paragraph;
        while (rest.length() > limit) {
            int cut = rest.lastIndexOf('\n', limit);
            if (cut <= 0) {
                cut = rest.lastIndexOf(' ', limit);
            }
            if (cut <= 0) {
                cut = Character.isLowSurrogate(rest.charAt(limit)) ? limit - 1 : limit;
            }
            chunks.add(rest.substring(0, cut));
            rest = rest.substring(cut).stripLeading();
        }
        chunks.add(rest);
        return chunks;
    }
}
