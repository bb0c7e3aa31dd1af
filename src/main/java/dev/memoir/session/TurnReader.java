package dev.memoir.session;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

import org.springframework.data.domain.Limit;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.common.web.NotFoundException;
import dev.memoir.session.api.RepliedTurn;
import dev.memoir.session.api.Role;
import dev.memoir.session.api.TurnView;
import dev.memoir.session.store.Session;
import dev.memoir.session.store.SessionRepository;
import dev.memoir.session.store.Turn;
import dev.memoir.session.store.TurnRepository;
import dev.memoir.tenant.TenantId;

/**
 * Reads a tenant's turns as the pipelines need them: a session's dialogue or a stretch of it, the turns a memory
 * rests on with their neighbours, a reply with the question it answers.
 */
@Component
public class TurnReader {

    private final SessionRepository sessions;
    private final TurnRepository turns;

    TurnReader(SessionRepository sessions, TurnRepository turns) {
        this.sessions = sessions;
        this.turns = turns;
    }

    /** Up to {@code count} turns ending with the tenant's given one, oldest first: the dialogue as it stood then. */
    @Transactional(readOnly = true)
    public List<TurnView> turnsEndingWith(TenantId tenant, UUID turnId, int count) {
        return turns.findByIdAndTenantId(turnId, tenant.value())
                .map(Turn::view)
                .map(turn -> oldestFirst(turns.findByTenantIdAndSessionIdAndSeqLessThanEqualOrderBySeqDesc(
                        tenant.value(), turn.sessionId(), turn.seq(), Limit.of(count))))
                .orElse(List.of());
    }

    /** The session's last {@code count} turns, oldest first. */
    @Transactional(readOnly = true)
    public List<TurnView> lastTurns(TenantId tenant, UUID sessionId, int count) {
        return oldestFirst(turns.findByTenantIdAndSessionIdAndSeqLessThanEqualOrderBySeqDesc(
                tenant.value(), sessionId, Integer.MAX_VALUE, Limit.of(count)));
    }

    /**
     * An assistant turn of the tenant with the user message it answered: 404 when the turn is unknown or another
     * tenant's, 400 when it is not a reply.
     */
    @Transactional(readOnly = true)
    public RepliedTurn reply(TenantId tenant, UUID turnId) {
        Turn turn = turns.findByIdAndTenantId(turnId, tenant.value())
                .orElseThrow(() -> new NotFoundException("Turn", turnId));
        TurnView reply = turn.view();
        Session session = sessions.findByIdAndTenantId(reply.sessionId(), tenant.value())
                .orElseThrow(() -> new NotFoundException("Turn", turnId));
        if (reply.role() != Role.ASSISTANT) {
            throw new NotAReplyException(turnId);
        }
        TurnView question = Optional.ofNullable(reply.replyTo())
                .flatMap(asked -> turns.findByIdAndTenantId(asked, tenant.value()))
                .map(Turn::view)
                .orElseThrow(() -> new NotAReplyException(turnId));
        return new RepliedTurn(session.ref(), question, reply);
    }

    /** The tenant's turns with these ids, in dialogue order. */
    @Transactional(readOnly = true)
    public List<TurnView> turnsByIds(TenantId tenant, List<UUID> ids) {
        return turns.findByTenantIdAndIdIn(tenant.value(), ids).stream()
                .map(Turn::view)
                .sorted(Comparator.comparing(TurnView::sessionId).thenComparingInt(TurnView::seq))
                .toList();
    }

    /**
     * Each of the given turns with its neighbours in its session, up to {@code radius} turns before and after it, in
     * dialogue order, by the id of the turn they surround; turns of other tenants or no longer stored are left out.
     */
    @Transactional(readOnly = true)
    public Map<UUID, List<TurnView>> turnsAround(TenantId tenant, Collection<UUID> turnIds, int radius) {
        List<TurnView> centers = turns.findByTenantIdAndIdIn(tenant.value(), turnIds).stream()
                .map(Turn::view)
                .toList();
        if (centers.isEmpty()) {
            return Map.of();
        }
        String sessionIds =
                centers.stream().map(t -> t.sessionId().toString()).collect(Collectors.joining(",", "{", "}"));
        String seqs = centers.stream().map(t -> Integer.toString(t.seq())).collect(Collectors.joining(",", "{", "}"));
        Map<UUID, List<TurnView>> bySession = turns.findAround(tenant.value(), sessionIds, seqs, radius).stream()
                .map(Turn::view)
                .collect(Collectors.groupingBy(
                        TurnView::sessionId,
                        Collectors.collectingAndThen(
                                Collectors.toMap(TurnView::id, t -> t, (a, b) -> a), m -> List.copyOf(m.values()))));
        Map<UUID, List<TurnView>> around = new HashMap<>();
        for (TurnView center : centers) {
            List<TurnView> window = bySession.getOrDefault(center.sessionId(), List.of()).stream()
                    .filter(t -> Math.abs(t.seq() - center.seq()) <= radius)
                    .sorted(Comparator.comparingInt(TurnView::seq))
                    .toList();
            if (!window.isEmpty()) {
                around.put(center.id(), window);
            }
        }
        return around;
    }

    /** The turns of a session from position {@code fromSeq} to {@code toSeq}, both included, in order. */
    @Transactional(readOnly = true)
    public List<TurnView> turnsBetween(TenantId tenant, UUID sessionId, int fromSeq, int toSeq) {
        return turns
                .findByTenantIdAndSessionIdAndSeqBetweenOrderBySeqAsc(tenant.value(), sessionId, fromSeq, toSeq)
                .stream()
                .map(Turn::view)
                .toList();
    }

    /** A session's turns, in order. */
    @Transactional(readOnly = true)
    public List<TurnView> allTurns(TenantId tenant, UUID sessionId) {
        return turns.findByTenantIdAndSessionIdOrderBySeqAsc(tenant.value(), sessionId).stream()
                .map(Turn::view)
                .toList();
    }

    private static List<TurnView> oldestFirst(List<Turn> newestFirst) {
        List<TurnView> views =
                new ArrayList<>(newestFirst.stream().map(Turn::view).toList());
        Collections.reverse(views);
        return views;
    }
}
