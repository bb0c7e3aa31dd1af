package dev.memoir.session.api;

import java.util.List;

/** One closed session an import stores: its title (or none) and its turns, at least one, in dialogue order. */
public record ImportedSession(String title, List<NewTurn> turns) {

    public ImportedSession {
        turns = List.copyOf(turns);
        if (turns.isEmpty()) {
            throw new IllegalArgumentException("An imported session has at least one turn");
        }
    }
}
