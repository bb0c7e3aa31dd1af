package dev.memoir.writing;

import java.util.ArrayList;
import java.util.List;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import dev.memoir.memory.MemoryStore;
import dev.memoir.memory.api.DedupKey;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.NewMemory;
import dev.memoir.session.api.Role;
import dev.memoir.session.api.TurnView;
import dev.memoir.session.api.TurnsRecorded;

/**
 * Standing instructions and preferences in the obvious forms ({@link InstructionDetector}), written as the user's
 * turns are recorded, in their transaction, without a model: one memory per sentence, in the user's words, resting on
 * its turn, for sessions that write {@link MemoryKind#INSTRUCTION}. Each new one is judged for what it supersedes by
 * the fact-supersession job. The model steps that judge what to keep (the conditional-memory note, the session
 * summary) find the rest.
 */
@Component
class InstructionWriter {

    private final MemoryStore store;

    InstructionWriter(MemoryStore store) {
        this.store = store;
    }

    @EventListener
    void onTurnsRecorded(TurnsRecorded recorded) {
        if (!recorded.settings().writes(MemoryKind.INSTRUCTION)) {
            return;
        }
        List<NewMemory> found = new ArrayList<>();
        for (TurnView turn : recorded.turns()) {
            if (turn.role() != Role.USER) {
                continue;
            }
            List<String> instructions = InstructionDetector.instructions(turn.content());
            for (int i = 0; i < instructions.size(); i++) {
                found.add(new NewMemory(
                                recorded.tenant(),
                                recorded.userId(),
                                MemoryKind.INSTRUCTION,
                                instructions.get(i),
                                recorded.sessionId(),
                                List.of(turn.id()),
                                DedupKey.instruction(turn.id(), i))
                        .occurred(turn.occurredAt(), turn.occurredAt()));
            }
        }
        if (!found.isEmpty()) {
            store.writeJudged(found);
        }
    }
}
