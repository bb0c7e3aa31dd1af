package dev.memoir.writing;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.IntStream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.stereotype.Service;

import com.github.kagkarlsson.scheduler.task.helper.CustomTask;

import dev.memoir.common.prompt.QuotedText;
import dev.memoir.jobs.Jobs;
import dev.memoir.llm.ChatModelClient;
import dev.memoir.llm.PromptValues;
import dev.memoir.memory.MemoryStore;
import dev.memoir.memory.SupersessionJudge;
import dev.memoir.memory.api.DedupKey;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.MemoryView;
import dev.memoir.memory.api.NewMemory;
import dev.memoir.memory.api.Supersession;
import dev.memoir.session.DialogueFormat;
import dev.memoir.session.SessionMemoryWrite;
import dev.memoir.session.SessionMemoryWrite.SessionDialogue;
import dev.memoir.session.TurnReader;
import dev.memoir.session.api.Role;
import dev.memoir.session.api.SessionRef;
import dev.memoir.session.api.TurnView;
import dev.memoir.tenant.TenantId;

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

    private final TurnReader turnReader;
    private final SessionMemoryWrite memoryWrite;
    private final MemoryStore store;
    private final ChatModelClient model;
    private final SupersessionJudge supersession;

    ConditionalMemoryWriter(
            TurnReader turnReader,
            SessionMemoryWrite memoryWrite,
            MemoryStore store,
            ChatModelClient model,
            SupersessionJudge supersession) {
        this.supersession = supersession;
        this.turnReader = turnReader;
        this.memoryWrite = memoryWrite;
        this.store = store;
        this.model = model;
    }

    /** A note worth keeping, and what storing it does to the user's live memories. */
    private record JudgedNote(ConditionalNote note, Supersession supersession) {}

    void write(TenantId tenant, UUID userTurnId) {
        memoryWrite.write(
                dialogueUpTo(tenant, userTurnId),
                dialogue -> note(userTurnId, dialogue).map(note -> judged(dialogue, note)),
                (dialogue, judged) -> {
                    SessionRef session = dialogue.session();
                    instruction(session, dialogue.turns().getLast(), judged.note());
                    if (!judged.note().worthKeeping()) {
                        return;
                    }
                    if (judged.supersession().repeats()) {
                        log.info(
                                "The conditional note of turn {} repeats memory {}; not stored",
                                userTurnId,
                                judged.supersession().repeated().orElseThrow());
                        return;
                    }
                    MemoryView written = store.write(new NewMemory(
                            session.tenant(),
                            session.userId(),
                            MemoryKind.CONDITIONAL,
                            judged.note().memoryText(),
                            session.id(),
                            List.of(userTurnId),
                            DedupKey.conditional(userTurnId)));
                    store.supersede(
                            session.tenant(),
                            session.userId(),
                            written.id(),
                            judged.supersession().superseded());
                });
    }

    /**
     * The standing instruction the note found, as a memory of its own resting on the turn, for a session that writes
     * them; one the detector found in the same turn already is not written twice (the same dedup key).
     */
    private void instruction(SessionRef session, TurnView turn, ConditionalNote note) {
        if (!session.settings().writes(MemoryKind.INSTRUCTION)) {
            return;
        }
        note.standingInstruction()
                .ifPresent(text -> store.writeJudged(List.of(new NewMemory(
                                session.tenant(),
                                session.userId(),
                                MemoryKind.INSTRUCTION,
                                text,
                                session.id(),
                                List.of(turn.id()),
                                DedupKey.instruction(turn.id(), 0))
                        .occurred(turn.occurredAt(), turn.occurredAt()))));
    }

    private JudgedNote judged(SessionDialogue dialogue, ConditionalNote note) {
        SessionRef session = dialogue.session();
        if (!note.worthKeeping()) {
            // Only its standing instruction is kept: nothing to judge.
            return new JudgedNote(note, Supersession.NONE);
        }
        return new JudgedNote(
                note,
                supersession.judge(
                        session.tenant(),
                        session.userId(),
                        note.memoryText(),
                        dialogue.turns().getLast().occurredAt(),
                        List.of()));
    }

    /** The dialogue that ends with the user turn, if the turn and its session are still there. */
    private Optional<SessionDialogue> dialogueUpTo(TenantId tenant, UUID userTurnId) {
        List<TurnView> dialogue = turnReader.turnsEndingWith(tenant, userTurnId, CONTEXT_TURNS);
        if (dialogue.isEmpty() || dialogue.getLast().role() != Role.USER) {
            log.info("Turn {} is gone or not a user turn; no conditional memory to write", userTurnId);
            return Optional.empty();
        }
        return memoryWrite.read(tenant, dialogue.getLast().sessionId(), () -> dialogue);
    }

    private Optional<ConditionalNote> note(UUID userTurnId, SessionDialogue dialogue) {
        List<TurnView> turns = dialogue.turns();
        List<TurnView> context = turns.subList(0, turns.size() - 1);
        ConditionalNote note = model.ask(
                ConditionalNote.STEP,
                PromptValues.create()
                        .items(
                                "context",
                                IntStream.range(0, context.size())
                                        .mapToObj(i -> DialogueFormat.LINES.entry(context.get(i), i))
                                        .toList(),
                                "\n",
                                "")
                        .text("input", QuotedText.of(turns.getLast().content())));
        if (!note.worthKeeping() && note.standingInstruction().isEmpty()) {
            log.info("The model found nothing worth a conditional memory in turn {}", userTurnId);
            return Optional.empty();
        }
        return Optional.of(note);
    }

    @Configuration(proxyBeanMethods = false)
    static class JobType {

        @Bean
        CustomTask<Void> conditionalMemoryTask(Jobs jobs, ConditionalMemoryWriter writer) {
            return jobs.tenantTask(
                    MemoryJobs.CONDITIONAL_MEMORY, (tenant, id) -> writer.write(tenant, UUID.fromString(id)));
        }
    }
}
