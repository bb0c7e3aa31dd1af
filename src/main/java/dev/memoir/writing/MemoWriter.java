package dev.memoir.writing;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

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
import dev.memoir.memory.NewMemory;
import dev.memoir.session.OpenSession;
import dev.memoir.session.SessionService;
import dev.memoir.session.TurnView;

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

    private final SessionService sessions;
    private final MemoryStore store;
    private final ChatModelClient model;
    private final PromptTemplates prompts;
    private final TransactionTemplate transaction;

    MemoWriter(SessionService sessions, MemoryStore store, ChatModelClient model, PromptTemplates prompts,
            TransactionTemplate transaction) {
        this.sessions = sessions;
        this.store = store;
        this.model = model;
        this.prompts = prompts;
        this.transaction = transaction;
    }

    private static String spanKey(MemoSpan span) {
        return "memo:" + span.id() + ":";
    }

    void write(MemoSpan span) {
        OpenSession session = sessions.findForJob(span.sessionId()).orElse(null);
        List<TurnView> turns = sessions.turnsBetween(span.sessionId(), span.fromSeq(), span.toSeq());
        if (session == null || turns.isEmpty()) {
            return;
        }
        String dialogue = IntStream.range(0, turns.size())
                .mapToObj(i -> "(line " + (i + 1) + ") " + turns.get(i).role().wireName() + ": "
                        + turns.get(i).content())
                .collect(Collectors.joining("\n"));
        String prompt = prompts.render("memo-writing", Map.of("dialogue", dialogue,
                "lines", Integer.toString(turns.size())));
        List<MemoRanges.Memo> memos = List.of();
        for (int attempt = 1; attempt <= ATTEMPTS && memos.isEmpty(); attempt++) {
            memos = model.askJson(ChatStep.MEMO_WRITING, List.of(new UserMessage(prompt)), MemoAnswer.JSON_SCHEMA)
                    .json().map(MemoAnswer::proposals)
                    .map(proposals -> MemoRanges.repair(proposals, turns.size()))
                    .orElse(List.of());
            if (memos.isEmpty()) {
                log.warn("Memo writing for {} gave no usable memo (attempt {} of {})", span.id(), attempt, ATTEMPTS);
            }
        }
        if (memos.isEmpty()) {
            throw ModelCallException.unusableAnswer(ChatStep.MEMO_WRITING,
                    "no usable memo in " + ATTEMPTS + " answers for span " + span.id());
        }
        List<MemoRanges.Memo> toStore = memos;
        transaction.executeWithoutResult(status -> {
            // A rerun of a span already written (a crash before the job was marked done) writes nothing again,
            // even if the model split the span differently this time.
            if (!sessions.holdForMemoryWrite(span.sessionId()) || store.existsWithDedupKeyPrefix(session.tenant(),
                    session.userId(), MemoryKind.MEMO, spanKey(span))) {
                return;
            }
            for (MemoRanges.Memo memo : toStore) {
                List<TurnView> covered = turns.subList(memo.start() - 1, memo.end());
                store.write(new NewMemory(session.tenant(), session.userId(), MemoryKind.MEMO, memo.summary(),
                        span.sessionId(), covered.stream().map(TurnView::id).toList(),
                        spanKey(span) + covered.getFirst().seq() + "-" + covered.getLast().seq(),
                        memo.topic()));
            }
        });
    }
}
