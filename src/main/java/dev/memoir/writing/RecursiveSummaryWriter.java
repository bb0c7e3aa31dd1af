package dev.memoir.writing;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import com.github.kagkarlsson.scheduler.task.helper.CustomTask;

import dev.memoir.common.jdbc.AdvisoryLocks;
import dev.memoir.common.prompt.QuotedText;
import dev.memoir.jobs.Jobs;
import dev.memoir.llm.ChatModelClient;
import dev.memoir.llm.ContextWindow;
import dev.memoir.llm.ModelCallException;
import dev.memoir.llm.ModelStep;
import dev.memoir.llm.PromptValues;
import dev.memoir.memory.MemoryQuarantine;
import dev.memoir.memory.MemoryStore;
import dev.memoir.memory.api.DedupKey;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.MemoryView;
import dev.memoir.memory.api.NewMemory;
import dev.memoir.session.DialogueFormat;
import dev.memoir.session.SessionMemoryWrite;
import dev.memoir.session.TurnReader;
import dev.memoir.session.api.TurnView;
import dev.memoir.tenant.TenantId;

/**
 * Recursive summary (recursive-summary paper): each user has one evolving memory, M_i = model(M_{i-1}, session i),
 * refolded at every session close and kept to a few sentences. Every version stays in the memory's revision trail.
 * Folds of one user run one at a time, under a per-user database lock, in the order the sessions closed, so that two
 * sessions closing at once never lose an update. The model is asked outside that lock, and what it wrote is kept
 * only if the summary did not move meanwhile.
 */
@Service
class RecursiveSummaryWriter {

    static final ModelStep<String> STEP = ModelStep.text("recursive-summary");

    private static final Logger log = LoggerFactory.getLogger(RecursiveSummaryWriter.class);

    private final SummaryFoldRepository folds;
    private final TurnReader turnReader;
    private final SessionMemoryWrite memoryWrite;
    private final MemoryStore store;
    private final ChatModelClient model;
    private final TransactionTemplate transaction;
    private final RecursiveSummaryProperties properties;
    private final DialogueParts dialogueParts;
    private final ContextWindow window;
    private final AdvisoryLocks locks;
    private final MemoryQuarantine quarantine;

    RecursiveSummaryWriter(
            SummaryFoldRepository folds,
            TurnReader turnReader,
            SessionMemoryWrite memoryWrite,
            MemoryStore store,
            ChatModelClient model,
            TransactionTemplate transaction,
            RecursiveSummaryProperties properties,
            DialogueParts dialogueParts,
            ContextWindow window,
            AdvisoryLocks locks,
            MemoryQuarantine quarantine) {
        this.quarantine = quarantine;
        this.locks = locks;
        this.window = window;
        this.folds = folds;
        this.turnReader = turnReader;
        this.memoryWrite = memoryWrite;
        this.store = store;
        this.model = model;
        this.transaction = transaction;
        this.properties = properties;
        this.dialogueParts = dialogueParts;
    }

    static DedupKey dedupKey(TenantId tenant, String userId) {
        return DedupKey.recursiveSummary(tenant, userId);
    }

    /** Folds, oldest first, every closed session of the closed session's user that is not folded yet. */
    void foldPending(TenantId tenant, UUID closedSessionId) {
        Optional<SummaryFold> trigger = folds.findBySessionIdAndTenantId(closedSessionId, tenant.value());
        if (trigger.isEmpty()) {
            return;
        }
        String userId = trigger.get().getUserId();
        while (foldOldest(tenant, userId)) {
            // one fold per transaction, so that a failure keeps the folds already made
        }
    }

    /** What a fold starts from: the oldest unfolded session, its turns and the summary as it stands. */
    private record Start(UUID foldedSessionId, List<TurnView> turns, Optional<MemoryView> previous) {

        String previousText() {
            return previous.map(MemoryView::text).orElse(null);
        }
    }

    /**
     * Makes the oldest pending fold: reads where it starts, asks the model with no lock or connection held (a fold
     * can take minutes on a slow model), then stores the result under the per-user lock only if nothing moved in
     * between; if another worker folded first, the fold is made again from the new state.
     */
    // A turn whose own record is quarantined is not folded into the summary every reply pins.
    private List<TurnView> foldable(TenantId tenant, String userId, List<TurnView> turns) {
        Set<UUID> heldBack = quarantine.heldBackTurns(
                tenant, userId, turns.stream().map(TurnView::id).toList());
        return heldBack.isEmpty()
                ? turns
                : turns.stream().filter(t -> !heldBack.contains(t.id())).toList();
    }

    private boolean foldOldest(TenantId tenant, String userId) {
        Start start = transaction.execute(status -> {
            Optional<SummaryFold> pending =
                    folds.findFirstByTenantIdAndUserIdAndFoldedAtIsNullOrderByClosedAtAsc(tenant.value(), userId);
            return pending.map(fold -> new Start(
                            fold.getSessionId(),
                            foldable(tenant, userId, turnReader.allTurns(tenant, fold.getSessionId())),
                            store.findByDedupKey(tenant, userId, dedupKey(tenant, userId))))
                    .orElse(null);
        });
        if (start == null) {
            return false;
        }
        return memoryWrite.write(start, this::fold, (read, folded, hold) -> {
            String updated = folded.orElse(null);
            // The user's lock and the session first, as every writer of the user takes them: erasing the user
            // waits for this transaction, and then deletes what it wrote; after an erasure the session is gone
            // (and its pending fold with it), and the next round finds what is left.
            if (!hold.session(tenant, read.foldedSessionId())) {
                return true;
            }
            locks.lock(
                    AdvisoryLocks.Space.SUMMARY_FOLD, dedupKey(tenant, userId).value());
            Optional<SummaryFold> pending =
                    folds.findFirstByTenantIdAndUserIdAndFoldedAtIsNullOrderByClosedAtAsc(tenant.value(), userId);
            Optional<MemoryView> current = store.findByDedupKey(tenant, userId, dedupKey(tenant, userId));
            if (pending.isEmpty()
                    || !pending.get().getSessionId().equals(read.foldedSessionId())
                    || !Objects.equals(current.map(MemoryView::text).orElse(null), read.previousText())) {
                return pending.isPresent();
            }
            if (updated == null) {
                log.info("Session {} has no turns; nothing to fold into the recursive summary", read.foldedSessionId());
            } else if (current.isPresent()) {
                store.revise(tenant, current.get().id(), updated, read.foldedSessionId(), "recursive-summary");
            } else {
                store.write(new NewMemory(
                        tenant,
                        userId,
                        MemoryKind.RECURSIVE_SUMMARY,
                        updated,
                        read.foldedSessionId(),
                        List.of(),
                        dedupKey(tenant, userId)));
            }
            pending.get().folded();
            return true;
        });
    }

    /**
     * The summary with the session folded in, part by part when the session is long; empty when the session has no
     * turns.
     */
    private Optional<String> fold(Start start) {
        if (start.turns().isEmpty()) {
            return Optional.empty();
        }
        String memory = start.previousText();
        String sentences = Integer.toString(properties.maxSentences());
        // The memory carried from fold to fold is an answer, so at most an answer's length; a longer one (an
        // edit by a client) is shortened with the session's lines when the prompt would not fit.
        int room = window.room(STEP, Map.of("sentences", sentences)) - window.answerTokens();
        for (DialogueParts.Part part : dialogueParts.split(start.turns(), DialogueFormat.LINES, room)) {
            memory = SentenceLimit.firstSentences(
                    model.ask(
                            STEP,
                            PromptValues.create()
                                    .text(
                                            "previous",
                                            memory == null
                                                    ? "(empty: this is the first session)"
                                                    : QuotedText.block(memory))
                                    .items("session", part.lines(), "\n", "")
                                    .fixed("sentences", sentences)),
                    properties.maxSentences());
            if (memory.isEmpty()) {
                throw ModelCallException.unusableAnswer(
                        STEP, "no sentence in the recursive summary for session " + start.foldedSessionId());
            }
        }
        return Optional.of(memory);
    }

    @Configuration(proxyBeanMethods = false)
    static class JobType {

        @Bean
        CustomTask<Void> recursiveSummaryTask(Jobs jobs, RecursiveSummaryWriter writer) {
            return jobs.tenantTask(
                    MemoryJobs.RECURSIVE_SUMMARY, (tenant, id) -> writer.foldPending(tenant, UUID.fromString(id)));
        }
    }
}
