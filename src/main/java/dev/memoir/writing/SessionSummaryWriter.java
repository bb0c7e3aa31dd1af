package dev.memoir.writing;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.stereotype.Service;

import com.github.kagkarlsson.scheduler.task.helper.CustomTask;

import dev.memoir.common.prompt.QuotedText;
import dev.memoir.jobs.Jobs;
import dev.memoir.llm.ChatModelClient;
import dev.memoir.llm.ContextWindow;
import dev.memoir.llm.PromptValues;
import dev.memoir.memory.MemoryStore;
import dev.memoir.memory.api.DedupKey;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.MemoryOrigin;
import dev.memoir.memory.api.NewMemory;
import dev.memoir.memory.api.Trust;
import dev.memoir.session.DialogueFormat;
import dev.memoir.session.SessionMemoryWrite;
import dev.memoir.session.SessionMemoryWrite.SessionDialogue;
import dev.memoir.session.TurnReader;
import dev.memoir.session.api.SessionRef;
import dev.memoir.session.api.TurnView;
import dev.memoir.tenant.TenantId;

/**
 * Writes the summary memory of a closed session (conditional-memory paper, Figure 7) and, for a session that writes
 * them, the standing instructions the same step found in it, each resting on the user turn that states it. Runs as a
 * background job.
 */
@Service
class SessionSummaryWriter {

    private static final Logger log = LoggerFactory.getLogger(SessionSummaryWriter.class);

    private final TurnReader turnReader;
    private final SessionMemoryWrite memoryWrite;
    private final MemoryStore store;
    private final ChatModelClient model;
    private final DialogueParts dialogueParts;
    private final ContextWindow window;

    SessionSummaryWriter(
            TurnReader turnReader,
            SessionMemoryWrite memoryWrite,
            MemoryStore store,
            ChatModelClient model,
            DialogueParts dialogueParts,
            ContextWindow window) {
        this.window = window;
        this.turnReader = turnReader;
        this.memoryWrite = memoryWrite;
        this.store = store;
        this.model = model;
        this.dialogueParts = dialogueParts;
    }

    void write(TenantId tenant, UUID sessionId) {
        Optional<SessionDialogue> dialogue =
                memoryWrite.read(tenant, sessionId, () -> turnReader.allTurns(tenant, sessionId));
        if (dialogue.isEmpty()) {
            log.info("Session {} is gone or empty; no summary to write", sessionId);
        }
        memoryWrite.write(dialogue, read -> Optional.of(summary(read.turns())), (read, summary) -> {
            SessionRef session = read.session();
            store.write(new NewMemory(
                    session.tenant(),
                    session.userId(),
                    MemoryKind.SUMMARY,
                    summary.summary(),
                    sessionId,
                    read.turns().stream().map(TurnView::id).toList(),
                    DedupKey.summary(sessionId)));
            if (session.settings().writes(MemoryKind.INSTRUCTION)
                    && !summary.instructions().isEmpty()) {
                store.writeJudged(summary.instructions().stream()
                        .map(text -> instruction(session, read.turns(), text))
                        .toList());
            }
        });
    }

    private static NewMemory instruction(SessionRef session, List<TurnView> turns, String text) {
        TurnView source = StatingTurn.of(turns, text);
        NewMemory instruction = new NewMemory(
                        session.tenant(),
                        session.userId(),
                        MemoryKind.INSTRUCTION,
                        text,
                        session.id(),
                        List.of(source.id()),
                        DedupKey.instructionOfSession(session.id(), text))
                .occurred(source.occurredAt(), source.occurredAt());
        if (StatingTurn.states(source, text)) {
            return instruction;
        }
        // No user turn says it in its words: it may come from any turn the model read, so it is trusted as the least.
        Trust least = turns.stream().map(TurnView::trust).reduce(Trust.HIGH, Trust::atMost);
        return instruction.from(MemoryOrigin.derived(MemoryKind.INSTRUCTION, least));
    }

    /**
     * A long session is summarised part by part, each part's summary and instructions carrying the parts before it:
     * a part gets the room the prompt leaves beside the carried summary, which is an answer and so at most an
     * answer's length.
     */
    private SessionSummary summary(List<TurnView> turns) {
        SessionSummary summary = null;
        int room = window.room(SessionSummary.STEP, Map.of()) - window.answerTokens();
        for (DialogueParts.Part part : dialogueParts.split(turns, DialogueFormat.LINES, room)) {
            summary = model.ask(
                    SessionSummary.STEP,
                    PromptValues.create()
                            .items("dialogue", part.lines(), "\n", "")
                            .text(
                                    "earlier",
                                    summary == null
                                            ? "(nothing: the conversation starts here)"
                                            : QuotedText.block(summary.summary()))
                            .items(
                                    "earlierInstructions",
                                    summary == null
                                            ? List.of()
                                            : summary.instructions().stream()
                                                    .map(instruction -> "- " + QuotedText.of(instruction))
                                                    .toList(),
                                    "\n",
                                    "(none)"));
        }
        return summary;
    }

    @Configuration(proxyBeanMethods = false)
    static class JobType {

        @Bean
        CustomTask<Void> sessionSummaryTask(Jobs jobs, SessionSummaryWriter writer) {
            return jobs.tenantTask(
                    MemoryJobs.SESSION_SUMMARY, (tenant, id) -> writer.write(tenant, UUID.fromString(id)));
        }
    }
}
