package dev.memoir.writing;

import java.util.List;
import java.util.Map;
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
import dev.memoir.memory.NewMemory;
import dev.memoir.session.OpenSession;
import dev.memoir.session.SessionService;
import dev.memoir.session.TurnView;

/** Writes the summary memory of a closed session (conditional-memory paper, Figure 7). Runs as a background job. */
@Service
class SessionSummaryWriter {

    private static final Logger log = LoggerFactory.getLogger(SessionSummaryWriter.class);

    private final SessionService sessions;
    private final MemoryStore store;
    private final ChatModelClient model;
    private final PromptTemplates prompts;
    private final TransactionTemplate transaction;
    private final DialogueParts dialogueParts;

    SessionSummaryWriter(SessionService sessions, MemoryStore store, ChatModelClient model,
            PromptTemplates prompts, TransactionTemplate transaction, DialogueParts dialogueParts) {
        this.dialogueParts = dialogueParts;
        this.sessions = sessions;
        this.transaction = transaction;
        this.store = store;
        this.model = model;
        this.prompts = prompts;
    }

    void write(UUID sessionId) {
        OpenSession session = sessions.findForJob(sessionId).orElse(null);
        List<TurnView> turns = sessions.allTurns(sessionId);
        if (session == null || turns.isEmpty()) {
            log.info("Session {} is gone or empty; no summary to write", sessionId);
            return;
        }
        // A long session is summarised part by part, each part's summary carrying the parts before it.
        String summary = null;
        for (DialogueParts.Part part : dialogueParts.split(turns)) {
            String prompt = prompts.render("session-summary", Map.of("dialogue", part.text(),
                    "earlier", summary == null ? "(nothing: the conversation starts here)" : summary));
            summary = model.askText(ChatStep.SESSION_SUMMARY, List.of(new UserMessage(prompt))).strip();
        }
        String written = summary;
        transaction.executeWithoutResult(status -> {
            if (sessions.holdForMemoryWrite(sessionId)) {
                store.write(new NewMemory(session.tenant(), session.userId(), MemoryKind.SUMMARY, written, sessionId,
                        turns.stream().map(TurnView::id).toList(), "summary:" + sessionId));
            }
        });
    }
}
