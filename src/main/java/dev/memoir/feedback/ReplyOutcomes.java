package dev.memoir.feedback;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.reranker.RerankTrace;
import dev.memoir.reranker.Reranker;
import dev.memoir.retrieval.RecursiveReasoner;
import dev.memoir.session.api.SessionRef;
import dev.memoir.session.api.TurnView;

/**
 * What is kept of each reply for learning later, recorded in the transaction that stores the reply: its trace
 * (the memories it was given and cited, which the user's feedback starts from), the reranker's feedback for a
 * reranked reply, and for a reasoned reply the learning episode its reasoning opens.
 */
@Service
public class ReplyOutcomes {

    private final ReplyTraces traces;
    private final Reranker reranker;
    private final EpisodeRepository episodes;

    ReplyOutcomes(ReplyTraces traces, Reranker reranker, EpisodeRepository episodes) {
        this.traces = traces;
        this.reranker = reranker;
        this.episodes = episodes;
    }

    /**
     * A reply answered from recalled memory.
     *
     * @param given  the memories laid out in its prompt, in order
     * @param cited  the ones it cited
     * @param rerank how the reranker chose the memories, when the session reranks
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void record(
            SessionRef session,
            UUID replyTurnId,
            List<ScoredMemory> given,
            Collection<UUID> cited,
            Optional<RerankTrace> rerank) {
        traces.record(session, replyTurnId, given, List.copyOf(cited));
        rerank.ifPresent(trace -> reranker.recordFeedback(
                session.tenant(),
                session.userId(),
                replyTurnId,
                trace,
                given.stream().map(ScoredMemory::id).toList(),
                cited));
    }

    /**
     * A reply reasoned with R^3: its trace (the memories found, none cited) and an open episode whose first trial
     * is the reasoning, steps included, which the user's feedback can continue.
     *
     * @return the episode's id
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public UUID recordReasoned(
            SessionRef session, TurnView question, UUID replyTurnId, RecursiveReasoner.Reasoning reasoning) {
        traces.record(session, replyTurnId, reasoning.memories(), List.of());
        return episodes.save(new Episode(
                        session.tenant().value(),
                        session.userId(),
                        session.id(),
                        question.id(),
                        replyTurnId,
                        question.content(),
                        Trial.reasoned(1, reasoning)))
                .getId();
    }
}
