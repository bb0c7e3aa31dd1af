package dev.memoir.writing;

import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.stereotype.Service;

import com.github.kagkarlsson.scheduler.task.helper.CustomTask;

import dev.memoir.jobs.Jobs;
import dev.memoir.llm.ChatModelClient;
import dev.memoir.llm.ModelCallException;
import dev.memoir.llm.PromptValues;
import dev.memoir.memory.MemoryStore;
import dev.memoir.memory.api.DedupKey;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.NewMemory;
import dev.memoir.session.DialogueFormat;
import dev.memoir.session.SessionMemoryWrite;
import dev.memoir.session.SessionMemoryWrite.SessionDialogue;
import dev.memoir.session.TurnReader;
import dev.memoir.session.api.SessionRef;
import dev.memoir.session.api.TurnView;
import dev.memoir.tenant.TenantId;

/**
 * MemoChat memo writing: the model splits a span of dialogue into topics, each with a summary and its
 * line range. Ranges are repaired where they can be; an answer with no usable memo is asked for once more, and if
 * that fails too nothing is stored. Each memo becomes a {@code memo} record covering its turns.
 */
@Service
class MemoWriter {

    private static final Logger log = LoggerFactory.getLogger(MemoWriter.class);

    /**
     * Answers asked for before a span is given up on. Not a setting: a second answer catches a model's occasional
     * malformed one, and a model that fails twice on the same span is failing on the task, not by chance.
     */
    private static final int ATTEMPTS = 2;

    private final TurnReader turnReader;
    private final SessionMemoryWrite memoryWrite;
    private final MemoryStore store;
    private final ChatModelClient model;

    MemoWriter(TurnReader turnReader, SessionMemoryWrite memoryWrite, MemoryStore store, ChatModelClient model) {
        this.turnReader = turnReader;
        this.memoryWrite = memoryWrite;
        this.store = store;
        this.model = model;
    }

    void write(TenantId tenant, MemoSpan span) {
        memoryWrite.write(
                memoryWrite.read(
                        tenant,
                        span.sessionId(),
                        () -> turnReader.turnsBetween(tenant, span.sessionId(), span.fromSeq(), span.toSeq())),
                dialogue -> Optional.of(memos(span, dialogue.turns())),
                (dialogue, memos) -> store(span, dialogue, memos));
    }

    /** The span's memos; fails (the job is retried) when no answer gave a usable one. */
    private List<MemoRanges.Memo> memos(MemoSpan span, List<TurnView> turns) {
        PromptValues prompt = PromptValues.create()
                .items(
                        "dialogue",
                        IntStream.range(0, turns.size())
                                .mapToObj(i -> DialogueFormat.NUMBERED_LINES.entry(turns.get(i), i))
                                .toList(),
                        "\n",
                        "")
                .fixed("lines", Integer.toString(turns.size()));
        List<MemoRanges.Memo> memos = List.of();
        for (int attempt = 1; attempt <= ATTEMPTS && memos.isEmpty(); attempt++) {
            memos = model.askOrEmpty(MemoAnswer.STEP, prompt).orElse(List.of());
            if (memos.isEmpty()) {
                log.warn("Memo writing for {} gave no usable memo (attempt {} of {})", span.id(), attempt, ATTEMPTS);
            }
        }
        if (memos.isEmpty()) {
            throw ModelCallException.unusableAnswer(
                    MemoAnswer.STEP, "no usable memo in " + ATTEMPTS + " answers for span " + span.id());
        }
        return memos;
    }

    private void store(MemoSpan span, SessionDialogue dialogue, List<MemoRanges.Memo> memos) {
        SessionRef session = dialogue.session();
        // A rerun of a span already written (a crash before the job was marked done) writes nothing again,
        // even if the model split the span differently this time.
        if (store.existsWithDedupKeyPrefix(
                session.tenant(), session.userId(), MemoryKind.MEMO, DedupKey.memoSpanPrefix(span.id()))) {
            return;
        }
        for (MemoRanges.Memo memo : memos) {
            List<TurnView> covered = dialogue.turns().subList(memo.start() - 1, memo.end());
            store.write(new NewMemory(
                    session.tenant(),
                    session.userId(),
                    MemoryKind.MEMO,
                    memo.summary(),
                    span.sessionId(),
                    covered.stream().map(TurnView::id).toList(),
                    DedupKey.memo(
                            span.id(),
                            covered.getFirst().seq(),
                            covered.getLast().seq()),
                    memo.topic()));
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class JobType {

        @Bean
        CustomTask<Void> memoWritingTask(Jobs jobs, MemoWriter writer) {
            return jobs.tenantTask(MemoryJobs.MEMO_WRITING, (tenant, id) -> writer.write(tenant, MemoSpan.parse(id)));
        }
    }
}
