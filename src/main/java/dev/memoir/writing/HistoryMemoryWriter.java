package dev.memoir.writing;

import java.util.List;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import dev.memoir.memory.MemoryKind;
import dev.memoir.memory.MemoryStore;
import dev.memoir.memory.NewMemory;
import dev.memoir.session.TurnsRecorded;

/**
 * Writes a history record ("role: content") for every stored turn, in the transaction that stores the turns:
 * embedding runs in-process in milliseconds, so there is nothing to gain from deferring it and a turn is never
 * without its history memory.
 */
@Component
class HistoryMemoryWriter {

    private final MemoryStore store;

    HistoryMemoryWriter(MemoryStore store) {
        this.store = store;
    }

    @EventListener
    void onTurnsRecorded(TurnsRecorded recorded) {
        if (!recorded.settings().writes(MemoryKind.HISTORY)) {
            return;
        }
        store.writeAll(recorded.turns().stream()
                .map(turn -> new NewMemory(recorded.tenant(), recorded.userId(), MemoryKind.HISTORY, turn.asLine(),
                        recorded.sessionId(), List.of(turn.id()), "history:" + turn.id())
                        .occurred(turn.occurredAt(), turn.occurredAt()))
                .toList());
    }
}
