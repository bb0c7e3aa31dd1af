package dev.memoir.feedback;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.common.audit.Audited;
import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.memory.api.Trust;
import dev.memoir.session.TurnReader;
import dev.memoir.session.api.RepliedTurn;
import dev.memoir.session.api.SessionRef;
import dev.memoir.tenant.TenantId;

/** Keeps, for every reply, the memories it was given and the ones it cited. */
@Service
class ReplyTraces {

    private final ReplyTraceRepository traces;
    private final TurnReader turnReader;
    private final EpisodeRepository episodes;
    private final ApplicationEventPublisher events;

    ReplyTraces(
            ReplyTraceRepository traces,
            TurnReader turnReader,
            EpisodeRepository episodes,
            ApplicationEventPublisher events) {
        this.traces = traces;
        this.events = events;
        this.turnReader = turnReader;
        this.episodes = episodes;
    }

    /**
     * Records a reply's trace in the transaction that stores the reply, and in the audit trail what the reply was
     * shown ({@code reply.shown}).
     */
    @Transactional(propagation = Propagation.MANDATORY)
    void record(SessionRef session, UUID replyTurnId, List<ScoredMemory> given, List<UUID> cited) {
        List<UUID> shown = given.stream().map(ScoredMemory::id).toList();
        traces.save(new ReplyTrace(
                session.tenant().value(),
                replyTurnId,
                shown,
                given.stream().mapToDouble(ScoredMemory::score).toArray(),
                cited,
                given.stream()
                        .map(m -> m.provenance().trust() == null
                                ? null
                                : m.provenance().trust().wireName())
                        .toList()));
        events.publishEvent(Audited.of(
                session.tenant().value(),
                "reply.shown",
                session.userId(),
                shown,
                Map.of(
                        "replyTurnId", replyTurnId.toString(),
                        "sessionId", session.id().toString(),
                        "cited", cited.size())));
    }

    /** A reply's trace for the caller: 404 when the turn is unknown or another tenant's, 400 when not a reply. */
    @Transactional(readOnly = true)
    ReplyTraceView view(TenantId tenant, UUID replyTurnId) {
        RepliedTurn reply = turnReader.reply(tenant, replyTurnId);
        UUID episodeId = episodes.findByReplyTurnIdAndTenantId(replyTurnId, tenant.value())
                .map(Episode::getId)
                .orElse(null);
        return traces.findByTurnIdAndTenantId(replyTurnId, tenant.value())
                .map(trace -> {
                    List<UUID> given = trace.getMemoryIds();
                    double[] scores = trace.getScores();
                    List<UUID> cited = trace.getCitedIds();
                    List<String> trust = trace.getMemoryTrust();
                    List<ReplyTraceView.GivenMemory> memories = new ArrayList<>();
                    for (int i = 0; i < given.size(); i++) {
                        memories.add(new ReplyTraceView.GivenMemory(
                                given.get(i),
                                i < scores.length ? scores[i] : 0,
                                cited.contains(given.get(i)),
                                i < trust.size() && trust.get(i) != null ? Trust.fromWireName(trust.get(i)) : null));
                    }
                    return new ReplyTraceView(replyTurnId, reply.session().id(), true, memories, episodeId);
                })
                .orElseGet(() -> new ReplyTraceView(replyTurnId, reply.session().id(), false, List.of(), episodeId));
    }

    List<UUID> memoriesGiven(TenantId tenant, UUID replyTurnId) {
        return traces.findByTurnIdAndTenantId(replyTurnId, tenant.value())
                .map(ReplyTrace::getMemoryIds)
                .orElse(List.of());
    }
}
