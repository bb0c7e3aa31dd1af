package dev.memoir.writing;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.memoir.session.api.Role;
import dev.memoir.session.api.TurnView;

/**
 * The user turn of a session that states an instruction a model step quoted from it: the one holding most of the
 * instruction's words, the later of two that hold as many (a restated instruction rests on its last statement). The
 * model is asked to quote word for word, but may change a word or two.
 */
final class StatingTurn {

    private StatingTurn() {}

    static TurnView of(List<TurnView> turns, String instruction) {
        Set<String> wanted = words(instruction);
        TurnView best = null;
        long bestShared = -1;
        for (TurnView turn : turns) {
            if (turn.role() != Role.USER) {
                continue;
            }
            Set<String> present = words(turn.content());
            long shared = wanted.stream().filter(present::contains).count();
            if (shared >= bestShared) {
                best = turn;
                bestShared = shared;
            }
        }
        return best != null ? best : turns.getLast();
    }

    /** Whether the turn shares a word with the instruction: else it was only the nearest guess at the source. */
    static boolean states(TurnView turn, String instruction) {
        Set<String> present = words(turn.content());
        return words(instruction).stream().anyMatch(present::contains);
    }

    private static Set<String> words(String text) {
        Set<String> words = new HashSet<>();
        for (String word : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!word.isEmpty()) {
                words.add(word);
            }
        }
        return words;
    }
}
