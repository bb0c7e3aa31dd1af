package dev.memoir.chat.turn;

import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import dev.memoir.feedback.ReplyOutcomes;
import dev.memoir.llm.ChatModelClient;
import dev.memoir.retrieval.RecursiveReasoner;
import dev.memoir.session.SessionService;
import dev.memoir.session.TurnReader;
import dev.memoir.session.api.SessionRef;
import dev.memoir.session.api.TurnView;

/**
 * A reply by recursive reasoning over memory (R^3) instead of recall and the reply step: the model searches step
 * by step until it can answer. The reasoning becomes the first trial of a learning episode that the user's
 * feedback can continue. Nothing is remembered of the message and the recent turns are not shown to the model;
 * the memories resting on them are left out of its searches.
 */
@Component
class ReasonedReply {

    private static final String UNANSWERED = "I could not work that out from what I remember.";

    private final SessionService sessions;
    private final TurnReader turnReader;
    private final RecursiveReasoner reasoner;
    private final ReplyOutcomes outcomes;
    private final TransactionTemplate transaction;
    private final ChatProperties properties;
    private final ChatModelClient model;

    ReasonedReply(
            SessionService sessions,
            TurnReader turnReader,
            RecursiveReasoner reasoner,
            ReplyOutcomes outcomes,
            TransactionTemplate transaction,
            ChatProperties properties,
            ChatModelClient model) {
        this.model = model;
        this.sessions = sessions;
        this.turnReader = turnReader;
        this.reasoner = reasoner;
        this.outcomes = outcomes;
        this.transaction = transaction;
        this.properties = properties;
    }

    ChatReply answer(SessionRef session, TurnView userTurn) {
        List<UUID> inView =
                turnReader.turnsEndingWith(session.tenant(), userTurn.id(), properties.recentTurns()).stream()
                        .map(TurnView::id)
                        .toList();
        RecursiveReasoner.Reasoning reasoning = reasoner.reason(
                session.tenant(),
                session.userId(),
                userTurn.content(),
                List.of(),
                inView,
                session.settings().minTrust());
        String answer = reasoning.inference().isBlank() ? UNANSWERED : reasoning.inference();

        record Stored(TurnView turn, UUID episodeId) {}
        Stored stored = transaction.execute(status -> {
            TurnView reply = sessions.appendReply(session.tenant(), session.id(), userTurn.id(), answer, false);
            return new Stored(reply, outcomes.recordReasoned(session, userTurn, reply.id(), reasoning));
        });

        List<UsedMemory> used =
                reasoning.memories().stream().map(m -> UsedMemory.of(m, false)).toList();
        return new ChatReply(
                answer, stored.turn().id(), userTurn.id(), used, false, stored.episodeId(), model.configuredModel());
    }
}
