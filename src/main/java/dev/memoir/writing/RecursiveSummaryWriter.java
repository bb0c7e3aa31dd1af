package dev.memoir.writing;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import dev.memoir.llm.ChatModelClient;
import dev.memoir.llm.ChatStep;
import dev.memoir.llm.PromptTemplates;
import dev.memoir.memory.MemoryKind;
import dev.memoir.memory.MemoryStore;
import dev.memoir.memory.MemoryView;
import dev.memoir.memory.NewMemory;
import dev.memoir.session.SessionService;
import dev.memoir.session.TurnView;
import dev.memoir.tenant.TenantId;

/**
 * Recursive summary (seed 002): each user has one evolving memory, M_i = model(M_{i-1}, session i), refolded at
 * every session close and kept to a few sentences. Every version stays in the memory's revision trail. Folds of
 * one user run one at a time, under a per-user database lock, in the order the sessions closed, so that two
 * sessions closing at once never lose an update.
 */
@Service
class RecursiveSummaryWriter {

    private static final Logger log = LoggerFactory.getLogger(RecursiveSummaryWriter.class);

    private final SummaryFoldRepository folds;
    private final SessionService sessions;
    private final MemoryStore store;
    private final ChatModelClient model;
    private final PromptTemplates prompts;
    private final TransactionTemplate transaction;
    private final RecursiveSummaryProperties properties;

    RecursiveSummaryWriter(SummaryFoldRepository folds, SessionService sessions, MemoryStore store,
            ChatModelClient model, PromptTemplates prompts, TransactionTemplate transaction,
            RecursiveSummaryProperties properties) {
        this.folds = folds;
        this.sessions = sessions;
        this.store = store;
        this.model = model;
        this.prompts = prompts;
        this.transaction = transaction;
        this.properties = properties;
    }

    static String dedupKey(TenantId tenant, String userId) {
        return "recursive_summary:" + tenant + ":" + userId;
    }

    /** Folds, oldest first, every closed session of the closed session's user that is not folded yet. */
    void foldPending(UUID closedSessionId) {
        Optional<SummaryFold> trigger = folds.findById(closedSessionId);
        if (trigger.isEmpty()) {
            return;
        }
        TenantId tenant = new TenantId(trigger.get().getTenantId());
        String userId = trigger.get().getUserId();
        while (Boolean.TRUE.equals(transaction.execute(status -> foldOldest(tenant, userId)))) {
            // one fold per transaction, so that a failure keeps the folds already made
        }
    }

    private boolean foldOldest(TenantId tenant, String userId) {
        folds.lockUser(dedupKey(tenant, userId));
        Optional<SummaryFold> pending = folds.findFirstByTenantIdAndUserIdAndFoldedAtIsNullOrderByClosedAtAsc(
                tenant.value(), userId);
        if (pending.isEmpty()) {
            return false;
        }
        SummaryFold fold = pending.get();
        // Erasing the user waits for this transaction, and then deletes what it wrote.
        sessions.holdForMemoryWrite(fold.getSessionId());
        List<TurnView> turns = sessions.allTurns(fold.getSessionId());
        if (!turns.isEmpty()) {
            Optional<MemoryView> previous = store.findByDedupKey(dedupKey(tenant, userId));
            String prompt = prompts.render("recursive-summary", Map.of(
                    "previous", previous.map(MemoryView::text).orElse("(empty: this is the first session)"),
                    "session", Dialogue.lines(turns),
                    "sentences", Integer.toString(properties.maxSentences())));
            String updated = SentenceLimit.firstSentences(
                    model.askText(ChatStep.RECURSIVE_SUMMARY, List.of(new UserMessage(prompt))),
                    properties.maxSentences());
            if (updated.isEmpty()) {
                // Rolls the fold back: the job is retried, and the session stays first in line.
                throw new IllegalStateException("The model returned an empty recursive summary for session "
                        + fold.getSessionId());
            }
            if (previous.isPresent()) {
                store.revise(previous.get().id(), updated, fold.getSessionId(), "recursive-summary");
            } else {
                store.write(new NewMemory(tenant, userId, MemoryKind.RECURSIVE_SUMMARY, updated,
                        fold.getSessionId(), List.of(), dedupKey(tenant, userId)));
            }
        } else {
            log.info("Session {} has no turns; nothing to fold into the recursive summary", fold.getSessionId());
        }
        fold.folded();
        return true;
    }
}
