package dev.memoir.retrieval.layout;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.memoir.llm.TokenCounter;
import dev.memoir.memory.api.SearchExplanation;

/**
 * A long memory as the reply prompt shows it within a number of tokens: its opening, then the part that bears on the
 * message (the sentences or lines holding the message's words, and the passage whose embedding search matched, with
 * their neighbours), so that a whole 500-token answer does not take the room of five pieces of evidence. The text is
 * cut only between blocks: a sentence, a list item, a line of code; a fenced code block is kept whole where it fits,
 * and otherwise cut between its lines with a marker. Nothing is cut inside a word.
 */
final class Excerpt {

    /** What stands for text left out between two shown parts, and after the last. */
    static final String GAP = " … ";

    static final String CODE_CUT = "\n[… code cut]";

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}_]{3,}");
    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+(?=[\\p{Lu}\\p{N}\"'(\\[*`])");
    private static final Pattern LIST_ITEM = Pattern.compile("^\\s*(?:[-*+•]|\\d{1,3}[.)])\\s+");
    private static final Set<String> STOPWORDS = Set.of(
            "the", "and", "for", "are", "but", "not", "you", "all", "any", "can", "had", "her", "was", "one", "our",
            "out", "has", "have", "his", "how", "its", "may", "new", "now", "own", "say", "she", "too", "use", "way",
            "who", "did", "get", "him", "let", "put", "that", "this", "with", "from", "they", "will", "would", "there",
            "their", "what", "about", "which", "when", "make", "like", "just", "over", "such", "into", "than", "them",
            "then", "some", "could", "should", "these", "those", "been", "were", "your", "also", "more", "most", "only",
            "other", "very", "each", "where", "while", "does", "doing", "done", "here", "want", "need", "help",
            "please", "know", "tell", "give", "much", "many", "being", "because", "after", "before", "again", "still");

    private final TokenCounter tokens;

    Excerpt(TokenCounter tokens) {
        this.tokens = tokens;
    }

    /** The content words of a message, as {@link #of} matches them: lower case, three letters or more, no stopword. */
    static Set<String> contentWords(String message) {
        Set<String> words = new java.util.HashSet<>();
        if (message == null) {
            return words;
        }
        Matcher matcher = WORD.matcher(message.toLowerCase(Locale.ROOT));
        while (matcher.find()) {
            if (!STOPWORDS.contains(matcher.group())) {
                words.add(matcher.group());
            }
        }
        return words;
    }

    /** A block of the text: a sentence, a list item, a line, or a fenced code block, by its characters. */
    private record Block(int start, int end, boolean code) {}

    /**
     * The text within {@code maxTokens}: whole when it fits; else its opening (about a third of the room, at most)
     * and the blocks around the one that bears most on {@code words} (ties: the one the dense passage covers, then
     * the first), in the order they are in the text, gaps marked.
     */
    String of(String text, Set<String> words, SearchExplanation.Passage passage, int maxTokens) {
        if (tokens.count(text) <= maxTokens) {
            return text;
        }
        List<Block> blocks = blocks(text);
        if (blocks.isEmpty()) {
            return tokens.truncate(text, maxTokens);
        }
        int center = center(text, blocks, words, passage);
        int gapCost = tokens.count(GAP);
        int room = maxTokens;
        int openingRoom = center == 0 ? 0 : Math.min(room / 3, 48);
        String opening = center == 0 ? "" : fitted(text, blocks.getFirst(), openingRoom);
        if (!opening.isEmpty()) {
            room -= tokens.count(opening) + gapCost;
        }
        String first = fitted(text, blocks.get(center), room - gapCost);
        if (first.isEmpty()) {
            return opening.isEmpty() ? tokens.truncate(text, maxTokens) : opening + GAP.stripTrailing();
        }
        boolean whole =
                first.length() == blocks.get(center).end() - blocks.get(center).start();
        int[] span = whole
                ? grown(text, blocks, center, opening.isEmpty() ? 0 : 1, tokens.count(first), room - gapCost)
                : new int[] {center, center};
        return assembled(text, blocks, opening, first, whole, span[0], span[1]);
    }

    /**
     * The blocks around {@code center} that fit whole in {@code room} beside the {@code used} tokens: the next block,
     * then the one before, and so on, never before {@code openingEnd}; answers the first and the last.
     */
    private int[] grown(String text, List<Block> blocks, int center, int openingEnd, int used, int room) {
        int from = center;
        int to = center;
        boolean grow = true;
        while (grow) {
            grow = false;
            if (to + 1 < blocks.size()) {
                int cost = cost(text, blocks.get(to + 1));
                if (used + cost <= room) {
                    to++;
                    used += cost;
                    grow = true;
                }
            }
            if (from - 1 >= openingEnd) {
                int cost = cost(text, blocks.get(from - 1));
                if (used + cost <= room) {
                    from--;
                    used += cost;
                    grow = true;
                }
            }
        }
        return new int[] {from, to};
    }

    /** The opening, then blocks {@code from} to {@code to} (or the cut {@code first} alone), gaps marked. */
    private String assembled(
            String text, List<Block> blocks, String opening, String first, boolean whole, int from, int to) {
        StringBuilder shown = new StringBuilder();
        if (!opening.isEmpty()) {
            shown.append(opening);
            boolean adjacent = from == 1
                    && opening.length()
                            == blocks.getFirst().end() - blocks.getFirst().start();
            shown.append(adjacent ? separator(text, blocks.getFirst(), blocks.get(1)) : GAP);
        } else if (from > 0) {
            shown.append(GAP.stripLeading());
        }
        if (from == to && !whole) {
            shown.append(first);
        } else {
            shown.append(text, blocks.get(from).start(), blocks.get(to).end());
        }
        if (blocks.get(to).end() < text.stripTrailing().length() && (whole || from != to)) {
            shown.append(GAP.stripTrailing());
        }
        return shown.toString();
    }

    /**
     * The text's opening within {@code maxTokens}: whole blocks while they fit, the first cut between words (a code
     * block between lines) when even it does not, and a gap marker when text is left out. What a turn is about, for a
     * message about the arc of the dialogue.
     */
    String opening(String text, int maxTokens) {
        if (tokens.count(text) <= maxTokens) {
            return text;
        }
        List<Block> blocks = blocks(text);
        int room = maxTokens - tokens.count(GAP.stripTrailing());
        if (blocks.isEmpty() || room <= 0) {
            return tokens.truncate(text, maxTokens);
        }
        String first = fitted(text, blocks.getFirst(), room);
        if (first.isEmpty()) {
            return tokens.truncate(text, maxTokens);
        }
        int to = 0;
        int used = tokens.count(first);
        boolean whole =
                first.length() == blocks.getFirst().end() - blocks.getFirst().start();
        while (whole && to + 1 < blocks.size() && used + cost(text, blocks.get(to + 1)) <= room) {
            used += cost(text, blocks.get(++to));
        }
        String shown = to == 0
                ? first
                : text.substring(blocks.getFirst().start(), blocks.get(to).end());
        return shown + GAP.stripTrailing();
    }

    private int cost(String text, Block block) {
        return tokens.count(text.substring(block.start(), block.end())) + 1;
    }

    /** What separates two adjacent blocks in the text: a line break or a space. */
    private static String separator(String text, Block first, Block second) {
        return text.substring(first.end(), second.start()).contains("\n") ? "\n" : " ";
    }

    /** The block whole if it fits; a code block cut between its lines, marked; prose cut between words; or "". */
    private String fitted(String text, Block block, int room) {
        String content = text.substring(block.start(), block.end());
        if (room <= 0) {
            return "";
        }
        if (tokens.count(content) <= room) {
            return content;
        }
        if (block.code()) {
            int markerCost = tokens.count(CODE_CUT);
            StringBuilder kept = new StringBuilder();
            for (String line : content.split("\n", -1)) {
                String next = (kept.isEmpty() ? "" : kept + "\n") + line;
                if (tokens.count(next) + markerCost > room) {
                    break;
                }
                kept.setLength(0);
                kept.append(next);
            }
            return kept.isEmpty() ? "" : kept + CODE_CUT;
        }
        String cut = tokens.truncate(content, room);
        int space = cut.lastIndexOf(' ');
        return space > 0 && cut.length() < content.length() ? cut.substring(0, space) : cut;
    }

    /**
     * The block that bears most on the words: most of them held; on a tie, the one the dense passage covers most,
     * then the first.
     */
    private static int center(String text, List<Block> blocks, Set<String> words, SearchExplanation.Passage passage) {
        int best = -1;
        double bestScore = -1;
        for (int i = 0; i < blocks.size(); i++) {
            Block block = blocks.get(i);
            Set<String> held = contentWords(text.substring(block.start(), block.end()));
            held.retainAll(words);
            double score = held.size();
            if (passage != null && block.start() < passage.end() && block.end() > passage.start()) {
                // In proportion to how much of the block the passage covers: the sentence inside it, not the ones
                // its edges reach into.
                int covered = Math.min(block.end(), passage.end()) - Math.max(block.start(), passage.start());
                score += 0.5 * covered / Math.max(1, block.end() - block.start());
            }
            if (score > bestScore) {
                best = i;
                bestScore = score;
            }
        }
        return bestScore <= 0 ? 0 : best;
    }

    /** The text's blocks in order: fenced code blocks whole, then line by line, list items whole, prose by sentence. */
    private static List<Block> blocks(String text) {
        List<Block> blocks = new ArrayList<>();
        int position = 0;
        int codeStart = -1;
        while (position < text.length()) {
            int lineEnd = text.indexOf('\n', position);
            if (lineEnd < 0) {
                lineEnd = text.length();
            }
            String line = text.substring(position, lineEnd);
            boolean fence = line.strip().startsWith("```");
            if (codeStart >= 0) {
                if (fence) {
                    blocks.add(new Block(codeStart, lineEnd, true));
                    codeStart = -1;
                }
            } else if (fence) {
                codeStart = position;
            } else if (!line.isBlank()) {
                if (LIST_ITEM.matcher(line).find()) {
                    blocks.add(new Block(position, lineEnd, false));
                } else {
                    sentences(text, position, lineEnd, blocks);
                }
            }
            position = lineEnd + 1;
        }
        if (codeStart >= 0) {
            blocks.add(new Block(codeStart, text.length(), true));
        }
        return blocks;
    }

    private static void sentences(String text, int start, int end, List<Block> blocks) {
        Matcher boundary = SENTENCE_END.matcher(text).region(start, end);
        int from = start;
        while (boundary.find()) {
            blocks.add(new Block(from, trimmedEnd(text, from, boundary.start()), false));
            from = boundary.end();
        }
        if (from < end) {
            blocks.add(new Block(from, trimmedEnd(text, from, end), false));
        }
    }

    private static int trimmedEnd(String text, int from, int end) {
        int at = end;
        while (at > from && Character.isWhitespace(text.charAt(at - 1))) {
            at--;
        }
        return at;
    }
}
