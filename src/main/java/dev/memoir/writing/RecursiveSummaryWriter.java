package dev.memoir.writing;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import dev.memoir.llm.ChatModelClient;
import dev.memoir.llm.ChatStep;
import dev.memoir.llm.ModelCallException;
import dev.memoir.llm.PromptTemplates;
import dev.memoir.memory.MemoryKind;
import dev.memoir.memory.MemoryStore;
import dev.memoir.memory.MemoryView;
import dev.memoir.memory.NewMemory;
import dev.memoir.session.SessionService;
import dev.memoir.session.TurnView;
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

    private static final Logger log = LoggerFactory.getLogger(RecursiveSummaryWriter.class);

    private final SummaryFoldRepository folds;
    private final SessionService sessions;
    private final MemoryStore store;
    private final ChatModelClient model;
    private final PromptTemplates prompts;
    private final TransactionTemplate transaction;
    private final RecursiveSummaryProperties properties;
    private final DialogueParts dialogueParts;

    RecursiveSummaryWriter(SummaryFoldRepository folds, SessionService sessions, MemoryStore store,
            ChatModelClient model, PromptTemplates prompts, TransactionTemplate transaction,
            RecursiveSummaryProperties properties, DialogueParts dialogueParts) {
        this.dialogueParts = dialogueParts;
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
    private boolean foldOldest(TenantId tenant, String userId) {
        Start start = transaction.execute(status -> {
            Optional<SummaryFold> pending = folds.findFirstByTenantIdAndUserIdAndFoldedAtIsNullOrderByClosedAtAsc(
                    tenant.value(), userId);
            return pending.map(fold -> new Start(fold.getSessionId(), sessions.allTurns(fold.getSessionId()),
                    store.findByDedupKey(dedupKey(tenant, userId)))).orElse(null);
        });
        if (start == null) {
            return false;
        }
        String updated = start.turns().isEmpty() ? null : fold(start);
        return Boolean.TRUE.equals(transaction.execute(status -> {
            folds.lockUser(dedupKey(tenant, userId));
            Optional<SummaryFold> pending = folds.findFirstByTenantIdAndUserIdAndFoldedAtIsNullOrderByClosedAtAsc(
                    tenant.value(), userId);
            Optional<MemoryView> current = store.findByDedupKey(dedupKey(tenant, userId));
            if (pending.isEmpty() || !pending.get().getSessionId().equals(start.foldedSessionId())
                    || !Objects.equals(current.map(MemoryView::text).orElse(null), start.previousText())) {
                return pending.isPresent();
            }
            // Erasing the user waits for this transaction, and then deletes what it wrote.
            if (!sessions.holdForMemoryWrite(start.foldedSessionId())) {
                return true;
            }
            if (updated == null) {
                log.info("Session {} has no turns; nothing to fold into the recursive summary",
                        start.foldedSessionId());
            } else if (current.isPresent()) {
                store.revise(current.get().id(), updated, start.foldedSessionId(), "recursive-summary");
            } else {
                store.write(new NewMemory(tenant, userId, MemoryKind.RECURSIVE_SUMMARY, updated,
                        start.foldedSessionId(), List.of(), dedupKey(tenant, userId)));
            }
            pending.get().folded();
            return true;
        }));
    }

    /** The summary with the session folded in, part by part when the session is long. */
    private String fold(Start start) {
        String memory = start.previousText();
        for (DialogueParts.Part part : dialogueParts.split(start.turns())) {
            String prompt = prompts.render("recursive-summary", Map.of(
                    "previous", memory == null ? "(empty: this is the first session)" : memory,
                    "session", part.text(),
                    "sentences", Integer.toString(properties.maxSentences())));
            memory = SentenceLimit.firstSentences(
                    model.askText(ChatStep.RECURSIVE_SUMMARY, List.of(new UserMessage(prompt))),
                    properties.maxSentences());
            if (memory.isEmpty()) {
                throw ModelCallException.unusableAnswer(ChatStep.RECURSIVE_SUMMARY,
                        "no sentence in the recursive summary for session " + start.foldedSessionId());
            }
        }
        return memory;
    }
}
