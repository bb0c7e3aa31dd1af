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
import dev.memoir.session.Role;
import dev.memoir.session.SessionService;
import dev.memoir.session.TurnView;

/**
 * Writes the conditional memory record of a user turn that the reply step judged worth remembering
 * (conditional-memory paper): the model reads the dialogue up to that turn and answers with the related context, why
 * the user said it and a note for the future. Runs as a background job; a model failure throws so that the job is
 * retried, a malformed answer writes nothing.
 */
@Service
class ConditionalMemoryWriter {

    private static final Logger log = LoggerFactory.getLogger(ConditionalMemoryWriter.class);

    /**
     * The remembered message and the turns before it that the note writer reads. Not a setting: it is the window
     * a reply sees by default ({@code memoir.chat.recent-turns}), the context in which the message was judged
     * worth remembering, and the note explains that one message, whatever the deployment.
     */
    private static final int CONTEXT_TURNS = 12;

    private final SessionService sessions;
    private final MemoryStore store;
    private final ChatModelClient model;
    private final PromptTemplates prompts;
    private final TransactionTemplate transaction;

    ConditionalMemoryWriter(SessionService sessions, MemoryStore store, ChatModelClient model,
            PromptTemplates prompts, TransactionTemplate transaction) {
        this.sessions = sessions;
        this.transaction = transaction;
        this.store = store;
        this.model = model;
        this.prompts = prompts;
    }

    void write(UUID userTurnId) {
        List<TurnView> dialogue = sessions.turnsEndingWith(userTurnId, CONTEXT_TURNS);
        if (dialogue.isEmpty() || dialogue.getLast().role() != Role.USER) {
            log.info("Turn {} is gone or not a user turn; no conditional memory to write", userTurnId);
            return;
        }
        TurnView userTurn = dialogue.getLast();
        OpenSession session = sessions.findForJob(userTurn.sessionId()).orElse(null);
        if (session == null) {
            return;
        }
        String prompt = prompts.render("conditional-memory", Map.of(
                "context", Dialogue.lines(dialogue.subList(0, dialogue.size() - 1)),
                "input", userTurn.content()));
        ConditionalNote note = model.askJson(ChatStep.CONDITIONAL_MEMORY, List.of(new UserMessage(prompt)),
                ConditionalNote.JSON_SCHEMA, ConditionalNote::read);
        if (!note.worthKeeping()) {
            log.info("The model found nothing worth a conditional memory in turn {}", userTurnId);
            return;
        }
        transaction.executeWithoutResult(status -> {
            if (sessions.holdForMemoryWrite(session.id())) {
                store.write(new NewMemory(session.tenant(), session.userId(), MemoryKind.CONDITIONAL,
                        note.memoryText(), session.id(), List.of(userTurnId), "conditional:" + userTurnId));
            }
        });
    }
}
