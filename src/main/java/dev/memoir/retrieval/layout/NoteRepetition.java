package dev.memoir.retrieval.layout;

import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.ScoredMemory;

/**
 * Whether a note or summary only repeats utterances the prompt shows with it, so that it need not be shown as well.
 */
final class NoteRepetition {

    /** Below this share of its words found in the turns it rests on, a note says more than they do. */
    private static final double REPEAT_SHARE = 0.8;

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]{3,}");

    private NoteRepetition() {}

    /**
     * Whether a memory derived from turns (a note, a summary, a topic) says no more than those turns, all of which
     * are shown (by id, as their lines): most of its words are theirs.
     */
    static boolean repeatsShownTurns(ScoredMemory memory, Map<UUID, String> shownTurns) {
        if (memory.kind() == MemoryKind.HISTORY
                || memory.provenance() == null
                || memory.provenance().turnIds().isEmpty()
                || !shownTurns.keySet().containsAll(memory.provenance().turnIds())) {
            return false;
        }
        Set<String> said = new HashSet<>();
        memory.provenance().turnIds().forEach(id -> said.addAll(words(shownTurns.get(id))));
        Set<String> noted = words(memory.text());
        if (noted.isEmpty()) {
            return true;
        }
        long repeated = noted.stream().filter(said::contains).count();
        return repeated >= REPEAT_SHARE * noted.size();
    }

    private static Set<String> words(String text) {
        Set<String> words = new HashSet<>();
        Matcher matcher = WORD.matcher(text.toLowerCase(Locale.ROOT));
        while (matcher.find()) {
            words.add(matcher.group());
        }
        return words;
    }
}
