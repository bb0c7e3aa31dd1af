package dev.memoir.feedback;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.springframework.stereotype.Service;

import dev.memoir.common.prompt.QuotedText;
import dev.memoir.llm.ChatModelClient;
import dev.memoir.llm.PromptValues;
import dev.memoir.memory.MemorySearches;
import dev.memoir.memory.MemoryStore;
import dev.memoir.memory.SupersessionJudge;
import dev.memoir.memory.api.DedupKey;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.MemoryOrigin;
import dev.memoir.memory.api.MemorySearch;
import dev.memoir.memory.api.MemoryView;
import dev.memoir.memory.api.NewMemory;
import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.memory.api.SearchMode;
import dev.memoir.memory.api.Supersession;
import dev.memoir.memory.api.Trust;
import dev.memoir.retrieval.RamProperties;
import dev.memoir.retrieval.RecursiveReasoner;
import dev.memoir.tenant.TenantId;

/**
 * Writes what an ended episode taught into memory (RAM's memory reflection): the model writes a reflected memory
 * from the question, the trials, the feedback and the answer or hints; it then replaces, in place, the user's
 * memory most similar to it (when similar enough, with the old text kept as a revision) or is added as a
 * {@code reflected} memory. A memory that records what was said ({@link MemoryKind#verbatim()}: a history memory)
 * is never rewritten: the correction is added beside it, resting on the same turns. "None" from the model
 * changes nothing.
 */
@Service
class LessonWriter {

    private final MemoryStore store;
    private final ChatModelClient model;
    private final RamProperties properties;
    private final MemorySearches searches;
    private final SupersessionJudge supersession;

    LessonWriter(
            MemoryStore store,
            ChatModelClient model,
            RamProperties properties,
            SupersessionJudge supersession,
            MemorySearches searches) {
        this.searches = searches;
        this.supersession = supersession;
        this.store = store;
        this.model = model;
        this.properties = properties;
    }

    /**
     * A reflected memory, with the texts of the memories the model was shown beside it (by id), the least trust among
     * them (what the lesson may be made from: it is trusted no more), and what it supersedes if it is added rather
     * than written over the memory it corrects.
     */
    record Reflection(String text, Map<UUID, String> shown, Trust shownTrust, Supersession supersession) {

        MemoryOrigin origin() {
            return MemoryOrigin.feedback().atMost(shownTrust);
        }
    }

    /** The model's reflected memory for an ended episode, if it has one (asks the model; no database writes). */
    Optional<Reflection> reflect(Episode episode, String truth) {
        List<ScoredMemory> existing = searches.nearest(
                new TenantId(episode.getTenantId()),
                episode.getUserId(),
                MemoryKind.RECORDS,
                searches.query(episode.getQuestion() + "\n" + truth),
                3,
                List.of());
        ReflectedMemory reflected = model.ask(
                ReflectedMemory.STEP,
                PromptValues.create()
                        .text("question", QuotedText.of(episode.getQuestion()))
                        .items(
                                "trials",
                                RecursiveReasoner.describe(Trial.asEarlierAnswers(episode.getTrials())),
                                "\n",
                                RecursiveReasoner.NO_EARLIER_TRIALS)
                        .text("truth", QuotedText.of(truth))
                        .items(
                                "existing",
                                existing.stream()
                                        .map(memory -> "- " + QuotedText.of(memory.text()))
                                        .toList(),
                                "\n",
                                "(none)"));
        Map<UUID, String> shown = new LinkedHashMap<>();
        existing.forEach(memory -> shown.put(memory.id(), memory.text()));
        if (!reflected.learnsSomething()) {
            return Optional.empty();
        }
        // Judged now, with no transaction held, and only when the correction will be added as a memory of its own:
        // an edit in place already replaces what it corrects. Should the nearest memory change before it is placed,
        // an added correction supersedes nothing rather than what a judgement it never had would say.
        ScoredMemory target = nearest(new TenantId(episode.getTenantId()), episode, reflected.text());
        boolean edits = target != null
                && target.score() >= properties.editThreshold()
                && !target.kind().verbatim();
        Supersession supersedes = edits
                ? Supersession.NONE
                : supersession.judge(
                        new TenantId(episode.getTenantId()),
                        episode.getUserId(),
                        reflected.text(),
                        Instant.now(),
                        List.of());
        Trust shownTrust = existing.stream()
                .map(memory -> memory.provenance().trust() == null
                        ? Trust.MEDIUM
                        : memory.provenance().trust())
                .reduce(Trust.HIGH, Trust::atMost);
        return Optional.of(new Reflection(reflected.text(), shown, shownTrust, supersedes));
    }

    /**
     * The memory a reflected text would correct: the user's most similar record, by meaning alone (the dense
     * ranking), leaving out the episode's own question and reply.
     */
    private ScoredMemory nearest(TenantId tenant, Episode episode, String reflected) {
        List<ScoredMemory> nearest = searches.search(
                MemorySearch.of(tenant, episode.getUserId(), MemoryKind.RECORDS, searches.queryLike(reflected), 1)
                        .excludingTurns(List.of(episode.getQuestionTurnId(), episode.getReplyTurnId()))
                        .using(SearchMode.DENSE));
        return nearest.isEmpty() ? null : nearest.getFirst();
    }

    /** Puts the reflected memory in place: edits the most similar memory, or adds it. Runs in the caller's transaction. */
    Learned place(Episode episode, Reflection reflection) {
        String reflected = reflection.text();
        TenantId tenant = new TenantId(episode.getTenantId());
        ScoredMemory found = nearest(tenant, episode, reflected);
        List<ScoredMemory> nearest = found == null ? List.of() : List.of(found);
        if (!nearest.isEmpty()
                && nearest.getFirst().score() >= properties.editThreshold()
                && nearest.getFirst().kind().verbatim()) {
            // What was said stays as it was said: the correction is a memory of its own, resting on the same
            // turns, so that it is found beside the words that misled the reply.
            ScoredMemory misled = nearest.getFirst();
            Instant now = Instant.now();
            MemoryView added = store.write(new NewMemory(
                            tenant,
                            episode.getUserId(),
                            MemoryKind.REFLECTED,
                            reflected,
                            episode.getSessionId(),
                            misled.provenance().turnIds(),
                            DedupKey.reflected(episode.getId()))
                    .occurred(now, now)
                    .from(reflection.origin()));
            store.supersede(
                    tenant,
                    episode.getUserId(),
                    added.id(),
                    reflection.supersession().superseded());
            return new Learned("added", added.id(), reflected, null, misled.id());
        }
        if (!nearest.isEmpty() && nearest.getFirst().score() >= properties.editThreshold()) {
            ScoredMemory target = nearest.getFirst();
            // The edit replaces the text the model was shown (or, if it was not shown it, the text just found):
            // a memory changed meanwhile is not overwritten with a correction made from its old text.
            String seen = reflection.shown().getOrDefault(target.id(), target.text());
            MemoryView edited =
                    store.reviseIfUnchanged(tenant, target.id(), seen, reflected, episode.getSessionId(), "reflection");
            return new Learned("edited", edited.id(), reflected, target.text(), null);
        }
        MemoryView added = store.write(new NewMemory(
                        tenant,
                        episode.getUserId(),
                        MemoryKind.REFLECTED,
                        reflected,
                        episode.getSessionId(),
                        List.of(),
                        DedupKey.reflected(episode.getId()))
                .from(reflection.origin()));
        store.supersede(
                tenant,
                episode.getUserId(),
                added.id(),
                reflection.supersession().superseded());
        return new Learned("added", added.id(), reflected, null, null);
    }
}
