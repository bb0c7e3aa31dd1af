package dev.memoir.context;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

import dev.memoir.common.audit.Audited;
import dev.memoir.common.usage.UsageScope;
import dev.memoir.common.web.InvalidRequestException;
import dev.memoir.common.web.NotFoundException;
import dev.memoir.llm.TokenCounter;
import dev.memoir.memory.MemoryDefaults;
import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.redaction.SecretRedactor;
import dev.memoir.retrieval.ReplyContext;
import dev.memoir.retrieval.ReplyMemory;
import dev.memoir.session.SessionService;
import dev.memoir.session.TurnReader;
import dev.memoir.session.api.SessionRef;
import dev.memoir.session.api.TurnView;
import dev.memoir.tenant.TenantId;

/**
 * The reply's memory for a client that calls its model itself: built by {@link ReplyMemory}, the seam
 * {@code POST /chat} builds its reply request's memory through, so that for the same user, message and settings the
 * text is the one a chat's model receives; and kept as a trace that names each entry by its number.
 */
@Service
public class MemoryContexts {

    private final ReplyMemory replyMemory;
    private final SessionService sessions;
    private final TurnReader turnReader;
    private final MemoryDefaults defaults;
    private final ContextTraceRepository traces;
    private final TokenCounter tokens;
    private final SecretRedactor redactor;
    private final ApplicationEventPublisher events;
    private final TransactionTemplate transaction;

    MemoryContexts(
            ReplyMemory replyMemory,
            SessionService sessions,
            TurnReader turnReader,
            MemoryDefaults defaults,
            ContextTraceRepository traces,
            TokenCounter tokens,
            SecretRedactor redactor,
            ApplicationEventPublisher events,
            PlatformTransactionManager transactions) {
        this.replyMemory = replyMemory;
        this.events = events;
        this.transaction = new TransactionTemplate(transactions);
        this.sessions = sessions;
        this.turnReader = turnReader;
        this.defaults = defaults;
        this.traces = traces;
        this.tokens = tokens;
        this.redactor = redactor;
    }

    /**
     * The memory a reply to the query would carry. With a session, its settings apply (400 naming {@code userId}
     * when it is another user's, {@code memory} when settings are given too) and memories resting on its last
     * {@code excludeRecentTurns} turns are left out; without one, the service defaults with {@code memory} on top.
     */
    public MemoryContext build(TenantId tenant, ContextQuery query) {
        SessionRef session = sessionFor(tenant, query);
        int budget = query.tokenBudget() != null
                ? query.tokenBudget()
                : session.settings().promptTokenBudget();
        List<UUID> recent = query.sessionId() == null || query.excludeRecentTurns() <= 0
                ? List.of()
                : turnReader.lastTurns(tenant, query.sessionId(), query.excludeRecentTurns()).stream()
                        .map(TurnView::id)
                        .toList();
        // Masked as a stored turn is: self-reflection sends the query to the model.
        ReplyContext context;
        try (UsageScope scope = UsageScope.open(tenant.value(), query.userId(), query.sessionId())) {
            context = replyMemory.contextFor(session, redactor.redact(tenant, query.query()), recent, budget);
        }
        UUID id = UUID.randomUUID();
        Set<UUID> numbered = new HashSet<>();
        context.numbered().forEach(memory -> numbered.add(memory.id()));
        List<ScoredMemory> pinned = context.included().stream()
                .filter(memory -> !numbered.contains(memory.id()))
                .toList();
        recordShown(tenant, query, session, id, context, pinned);
        return new MemoryContext(
                id,
                query.userId(),
                query.sessionId(),
                context.text(),
                tokens.count(context.text()),
                budget,
                entries(context),
                pinned.stream()
                        .map(memory -> new MemoryContext.Pinned(
                                memory.id(),
                                memory.kind(),
                                memory.topic(),
                                memory.provenance() == null
                                        ? null
                                        : memory.provenance().trust()))
                        .toList(),
                context.searches(),
                context.keywords());
    }

    /** The context's trace and the audit trail's record of what was shown, committed together. */
    private void recordShown(
            TenantId tenant,
            ContextQuery query,
            SessionRef session,
            UUID id,
            ReplyContext context,
            List<ScoredMemory> pinned) {
        ContextTrace trace = new ContextTrace(
                id,
                tenant.value(),
                query.userId(),
                query.sessionId(),
                context.numbered().stream().map(ScoredMemory::id).toList(),
                context.numbered().stream().mapToDouble(ScoredMemory::score).toArray(),
                pinned.stream().map(ScoredMemory::id).toList(),
                context.numbered().stream()
                        .map(memory -> memory.provenance() == null
                                        || memory.provenance().trust() == null
                                ? null
                                : memory.provenance().trust().wireName())
                        .toList(),
                session.settings().minTrust() == null
                        ? null
                        : session.settings().minTrust().wireName());
        transaction.executeWithoutResult(status -> {
            traces.save(trace);
            events.publishEvent(Audited.of(
                    tenant.value(),
                    "context.shown",
                    query.userId(),
                    context.included().stream().map(ScoredMemory::id).toList(),
                    Map.of("contextId", id.toString())));
        });
    }

    private static List<MemoryContext.Entry> entries(ReplyContext context) {
        List<MemoryContext.Entry> entries = new ArrayList<>();
        for (int i = 0; i < context.numbered().size(); i++) {
            ScoredMemory memory = context.numbered().get(i);
            entries.add(new MemoryContext.Entry(
                    i + 1,
                    memory.id(),
                    memory.kind(),
                    memory.topic(),
                    memory.occurredFrom(),
                    memory.occurredTo(),
                    memory.provenance() == null ? null : memory.provenance().sessionId(),
                    memory.provenance() == null
                            ? List.of()
                            : memory.provenance().turnIds(),
                    context.shown().get(i),
                    memory.score(),
                    memory.provenance() == null ? null : memory.provenance().source(),
                    memory.provenance() == null ? null : memory.provenance().trust()));
        }
        return entries;
    }

    private SessionRef sessionFor(TenantId tenant, ContextQuery query) {
        SessionRef session = settingsFor(tenant, query);
        return new SessionRef(
                tenant, session.id(), session.userId(), session.settings().trustingAtLeast(query.minTrust()));
    }

    private SessionRef settingsFor(TenantId tenant, ContextQuery query) {
        if (query.sessionId() == null) {
            return new SessionRef(tenant, null, query.userId(), defaults.resolve(query.memory()));
        }
        if (query.memory() != null) {
            throw new InvalidRequestException(
                    "memory", "must be omitted with a sessionId: the session's own memory settings apply");
        }
        SessionRef session = sessions.require(tenant, query.sessionId());
        if (!session.userId().equals(query.userId())) {
            throw new InvalidRequestException("userId", "is not the user of session " + query.sessionId());
        }
        return session;
    }

    /** A context request's trace: 404 when unknown, another tenant's, or purged. */
    @Transactional(readOnly = true)
    public ContextTraceView trace(TenantId tenant, UUID id) {
        return ContextTraceView.of(require(tenant, id));
    }

    /**
     * Records which entries a reply built on the context cited, by their numbers (replacing any recorded before): 400
     * naming {@code numbers} for a number the context did not show.
     */
    @Transactional
    public ContextTraceView cite(TenantId tenant, UUID id, List<Integer> numbers) {
        ContextTrace trace = require(tenant, id);
        List<UUID> entries = trace.getEntryIds();
        List<UUID> cited = new ArrayList<>();
        for (int i = 0; i < numbers.size(); i++) {
            int number = numbers.get(i);
            if (number < 1 || number > entries.size()) {
                throw new InvalidRequestException(
                        "numbers[" + i + "]",
                        entries.isEmpty()
                                ? "names no entry: the context showed none"
                                : "must be an entry's number, 1 to " + entries.size());
            }
            UUID memory = entries.get(number - 1);
            if (!cited.contains(memory)) {
                cited.add(memory);
            }
        }
        trace.cite(cited);
        return ContextTraceView.of(traces.save(trace));
    }

    private ContextTrace require(TenantId tenant, UUID id) {
        return traces.findByIdAndTenantId(id, tenant.value()).orElseThrow(() -> new NotFoundException("Context", id));
    }
}
