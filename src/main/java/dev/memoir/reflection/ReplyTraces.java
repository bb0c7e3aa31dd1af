package dev.memoir.reflection;

import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.memory.ScoredMemory;

/** Keeps, for every reply, the memories it was given and the ones it cited. */
@Service
public class ReplyTraces {

    private final ReplyTraceRepository traces;

    ReplyTraces(ReplyTraceRepository traces) {
        this.traces = traces;
    }

    /** Records a reply's trace in the transaction that stores the reply. */
    @Transactional(propagation = Propagation.MANDATORY)
    public void record(UUID replyTurnId, List<ScoredMemory> given, List<UUID> cited) {
        traces.save(new ReplyTrace(replyTurnId, given.stream().map(ScoredMemory::id).toList(),
                given.stream().mapToDouble(ScoredMemory::score).toArray(), cited));
    }

    List<UUID> memoriesGiven(UUID replyTurnId) {
        return traces.findById(replyTurnId).map(ReplyTrace::getMemoryIds).orElse(List.of());
    }
}
