package dev.memoir.writing;

import java.util.List;

import org.springframework.context.event.EventListener;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

import dev.memoir.llm.TextEmbedder;
import dev.memoir.memory.MemoryStore;
import dev.memoir.memory.api.DedupKey;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.MemoryOrigin;
import dev.memoir.memory.api.NewMemory;
import dev.memoir.session.api.NewTurn;
import dev.memoir.session.api.Role;
import dev.memoir.session.api.TurnsArriving;
import dev.memoir.session.api.TurnsRecorded;

/**
 * Writes a history record ("role: content") for every stored turn, in the transaction that stores the turns, so
 * that a turn is never without its history memory. The records are embedded before that transaction, while the
 * turns are arriving, so that a large import does not hold its session locked while it is embedded.
 */
@Component
class HistoryMemoryWriter {

    private final MemoryStore store;
    private final TextEmbedder embedder;

    HistoryMemoryWriter(MemoryStore store, TextEmbedder embedder) {
        this.embedder = embedder;
        this.store = store;
    }

    /** Embeds the history records to come before the session is locked; storing them then finds them ready. */
    @EventListener
    void onTurnsArriving(TurnsArriving arriving) {
        if (arriving.settings().writes(MemoryKind.HISTORY)) {
            embedder.prepare(arriving.turns().stream().map(NewTurn::asLine).toList());
        }
    }

    // First among the listeners of the turns: what else is made from a turn (an instruction found in it) looks up
    // whether the turn's own record was quarantined.
    @EventListener
    @Order(0)
    void onTurnsRecorded(TurnsRecorded recorded) {
        if (!recorded.settings().writes(MemoryKind.HISTORY)) {
            return;
        }
        store.writeAll(recorded.turns().stream()
                .map(turn -> new NewMemory(
                                recorded.tenant(),
                                recorded.userId(),
                                MemoryKind.HISTORY,
                                turn.asLine(),
                                recorded.sessionId(),
                                List.of(turn.id()),
                                DedupKey.history(turn.id()))
                        .occurred(turn.occurredAt(), turn.occurredAt())
                        .from(MemoryOrigin.ofTurn(turn.role() == Role.USER, turn.origin())))
                .toList());
    }
}
