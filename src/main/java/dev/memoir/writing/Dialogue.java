package dev.memoir.writing;

import java.util.List;
import java.util.stream.Collectors;

import dev.memoir.session.TurnView;

final class Dialogue {

    private Dialogue() {
    }

    /** Turns as prompt lines: "User: ..." and "Assistant: ...". */
    static String lines(List<TurnView> turns) {
        return turns.stream().map(TurnView::asLine).collect(Collectors.joining("\n"));
    }
}
