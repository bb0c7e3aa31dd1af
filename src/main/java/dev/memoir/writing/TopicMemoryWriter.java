package dev.memoir.writing;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
import dev.memoir.memory.MemorySearches;
import dev.memoir.memory.MemoryStore;
import dev.memoir.memory.SupersessionJudge;
import dev.memoir.memory.api.DedupKey;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.MemoryView;
import dev.memoir.memory.api.NewMemory;
import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.memory.api.Speaker;
import dev.memoir.memory.api.Supersession;
import dev.memoir.session.DialogueFormat;
import dev.memoir.session.SessionMemoryWrite;
import dev.memoir.session.SessionMemoryWrite.SessionDialogue;
import dev.memoir.session.TurnReader;
import dev.memoir.session.api.Role;
import dev.memoir.session.api.SessionRef;
import dev.memoir.session.api.TurnView;
import dev.memoir.tenant.TenantId;

import tools.jackson.databind.json.JsonMapper;

/**
 * RMM's prospective reflection, run when a session closes. For each speaker the model extracts
 * personal summaries with the turns they rest on ("no trait" is a valid answer). Each summary is then shown with
 * the most similar existing topic memories of that user and speaker, and the model answers Add or
 * Merge(index, merged summary), possibly several actions. Malformed actions and indexes outside the list are
 * ignored and logged; when nothing valid is left the summary is added, so that nothing learned is lost.
 * Extractions are stored and each summary applied in its own transaction, so a retried job repeats nothing.
 */
@Service
class TopicMemoryWriter {

    private static final Logger log = LoggerFactory.getLogger(TopicMemoryWriter.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final TurnReader turnReader;
    private final SessionMemoryWrite memoryWrite;
    private final MemoryStore store;
    private final ChatModelClient model;
    private final TopicExtractionRepository extractions;
    private final TopicCandidateRepository candidates;
    private final TopicProperties properties;
    private final DialogueParts dialogueParts;
    private final ContextWindow window;
    private final MemorySearches searches;
    private final SupersessionJudge supersessionJudge;

    private static final Set<MemoryKind> NOT_TOPIC =
            EnumSet.of(MemoryKind.CONDITIONAL, MemoryKind.REFLECTED, MemoryKind.FACT);

    TopicMemoryWriter(
            TurnReader turnReader,
            SessionMemoryWrite memoryWrite,
            MemoryStore store,
            ChatModelClient model,
            TopicExtractionRepository extractions,
            TopicCandidateRepository candidates,
            TopicProperties properties,
            DialogueParts dialogueParts,
            ContextWindow window,
            SupersessionJudge supersessionJudge,
            MemorySearches searches) {
        this.searches = searches;
        this.supersessionJudge = supersessionJudge;
        this.window = window;
        this.turnReader = turnReader;
        this.memoryWrite = memoryWrite;
        this.store = store;
        this.model = model;
        this.extractions = extractions;
        this.candidates = candidates;
        this.properties = properties;
        this.dialogueParts = dialogueParts;
    }

    void write(TenantId tenant, UUID sessionId) {
        Optional<SessionDialogue> dialogue =
                memoryWrite.read(tenant, sessionId, () -> turnReader.allTurns(tenant, sessionId));
        if (dialogue.isEmpty()) {
            return;
        }
        SessionRef session = dialogue.get().session();
        List<TurnView> turns = dialogue.get().turns();
        for (Speaker speaker : Speaker.values()) {
            if (!extractions.existsByTenantIdAndSessionIdAndSpeaker(tenant.value(), sessionId, speaker)) {
                extract(session, speaker, turns);
            }
            for (TopicCandidate candidate :
                    candidates.findByTenantIdAndSessionIdAndSpeakerAndAppliedAtIsNullOrderByPositionAsc(
                            tenant.value(), sessionId, speaker)) {
                apply(session, candidate, saidAt(turns, candidate.getTurnIds()));
            }
        }
    }

    private void extract(SessionRef session, Speaker speaker, List<TurnView> turns) {
        Role role = speaker == Speaker.USER ? Role.USER : Role.ASSISTANT;
        List<UUID> speakerTurns =
                turns.stream().filter(t -> t.role() == role).map(TurnView::id).toList();
        // The candidates are not memory yet, so the session is not held for them: it is when they are applied.
        memoryWrite.write(speaker, s -> extracted(s, turns), (s, extracted, hold) -> {
            for (int i = 0; i < extracted.size(); i++) {
                List<UUID> referenced = extracted.get(i).references().stream()
                        .distinct()
                        .map(n -> turns.get(n).id())
                        .toList();
                candidates.save(new TopicCandidate(
                        session.tenant().value(),
                        session.id(),
                        speaker,
                        i,
                        extracted.get(i).summary(),
                        referenced.isEmpty() ? speakerTurns : referenced));
            }
            extractions.save(new TopicExtraction(session.tenant().value(), session.id(), speaker));
            return null;
        });
    }

    /** The speaker's personal summaries in the session, read part by part when the session is long. */
    private List<TopicAnswers.Extracted> extracted(Speaker speaker, List<TurnView> turns) {
        // Turns keep their session-wide numbers in every part, so references need no translation.
        List<TopicAnswers.Extracted> extracted = new ArrayList<>();
        int room = window.room(TopicAnswers.EXTRACTION, Map.of("speaker", label(speaker)));
        for (DialogueParts.Part part : dialogueParts.split(turns, DialogueFormat.NUMBERED_TURNS, room)) {
            model
                    .ask(
                            TopicAnswers.EXTRACTION,
                            PromptValues.create()
                                    .fixed("speaker", label(speaker))
                                    .items("dialogue", part.lines(), "\n", "")
                                    .fixed("first", Integer.toString(part.offset()))
                                    .fixed(
                                            "last",
                                            Integer.toString(
                                                    part.offset() + part.turns().size() - 1)))
                    .stream()
                    .map(found -> found.within(
                            part.offset(), part.offset() + part.turns().size()))
                    .forEach(extracted::add);
        }
        return extracted;
    }

    /**
     * The memories most similar to a candidate, what to do with it (add it, or merge it into some of them), and,
     * when it is added, what it supersedes among the user's other fact-bearing memories.
     */
    private record Decision(List<ScoredMemory> similar, List<TopicAnswers.Action> actions, Supersession supersession) {}

    /** When the last turn a summary rests on was said (null when none of them is in the dialogue). */
    private static Instant saidAt(List<TurnView> turns, List<UUID> turnIds) {
        return turns.stream()
                .filter(t -> turnIds.contains(t.id()))
                .map(TurnView::occurredAt)
                .max(Instant::compareTo)
                .orElse(null);
    }

    private void apply(SessionRef session, TopicCandidate candidate, Instant said) {
        memoryWrite.write(candidate, c -> decision(session, c, said), (c, decision, hold) -> {
            if (!hold.session(session.tenant(), session.id())) {
                return null;
            }
            applyActions(session, candidate, decision);
            return null;
        });
    }

    private Decision decision(SessionRef session, TopicCandidate candidate, Instant said) {
        List<ScoredMemory> similar = searches.nearestOfSpeaker(
                session.tenant(),
                session.userId(),
                MemoryKind.TOPIC,
                candidate.getSpeaker(),
                searches.queryLike(candidate.getSummary()),
                properties.mergeCandidates());
        List<TopicAnswers.Action> actions =
                similar.isEmpty() ? List.of(TopicAnswers.Action.add()) : decide(candidate, similar);
        // The topic step already chose between this summary and the speaker's topic memories (merge, or add as a
        // new aspect): what an added one may still supersede are the other kinds' memories.
        boolean adds = actions.stream().anyMatch(action -> !action.merge());
        Supersession supersession = adds && candidate.getSpeaker() == Speaker.USER
                ? supersessionJudge.judge(
                        session.tenant(), session.userId(), candidate.getSummary(), said, List.of(), NOT_TOPIC)
                : Supersession.NONE;
        return new Decision(similar, actions, supersession);
    }

    /** Applies the actions to the candidate, in the transaction that holds the session. */
    private void applyActions(SessionRef session, TopicCandidate candidate, Decision decision) {
        List<ScoredMemory> similar = decision.similar();
        Set<Integer> merged = new HashSet<>();
        boolean added = false;
        for (TopicAnswers.Action action : decision.actions()) {
            if (action.merge() && merged.add(action.index())) {
                store.merge(
                        session.tenant(),
                        similar.get(action.index()).id(),
                        similar.get(action.index()).text(),
                        action.merged(),
                        session.id(),
                        candidate.getSummary(),
                        candidate.getTurnIds());
            } else if (!action.merge() && !added) {
                added = true;
                MemoryView written = store.write(new NewMemory(
                        session.tenant(),
                        session.userId(),
                        MemoryKind.TOPIC,
                        candidate.getSummary(),
                        session.id(),
                        candidate.getTurnIds(),
                        DedupKey.topic(candidate.getId()),
                        null,
                        candidate.getSpeaker()));
                store.supersede(
                        session.tenant(),
                        session.userId(),
                        written.id(),
                        decision.supersession().superseded());
            }
        }
        candidates
                .findByIdAndTenantId(candidate.getId(), session.tenant().value())
                .ifPresent(TopicCandidate::applied);
    }

    /** The valid actions the model chose for a summary; Add alone when it chose none that can be applied. */
    private List<TopicAnswers.Action> decide(TopicCandidate candidate, List<ScoredMemory> similar) {
        List<Optional<TopicAnswers.Action>> answered = model.ask(
                TopicAnswers.UPDATE,
                PromptValues.create()
                        .items(
                                "history",
                                similar.stream()
                                        .map(memory -> QuotedText.inline(memory.text()))
                                        .toList(),
                                texts -> JSON.writeValueAsString(Map.of("history_summaries", texts)))
                        .items(
                                "summary",
                                List.of(QuotedText.inline(candidate.getSummary())),
                                texts -> JSON.writeValueAsString(Map.of("new_summary", texts.getFirst())))
                        .fixed("last", Integer.toString(similar.size() - 1)));
        List<TopicAnswers.Action> valid = new ArrayList<>();
        for (Optional<TopicAnswers.Action> action : answered) {
            if (action.isEmpty()) {
                log.warn("Ignored a malformed topic-memory action for candidate {}", candidate.getId());
            } else if (action.get().merge()
                    && (action.get().index() < 0 || action.get().index() >= similar.size())) {
                log.warn(
                        "Ignored Merge({}) for candidate {}: only {} history summaries were shown",
                        action.get().index(),
                        candidate.getId(),
                        similar.size());
            } else {
                valid.add(action.get());
            }
        }
        return valid.isEmpty() ? List.of(TopicAnswers.Action.add()) : valid;
    }

    private static String label(Speaker speaker) {
        return speaker == Speaker.USER ? "USER" : "ASSISTANT";
    }

    @Configuration(proxyBeanMethods = false)
    static class JobType {

        @Bean
        CustomTask<Void> topicMemoryTask(Jobs jobs, TopicMemoryWriter writer) {
            return jobs.tenantTask(MemoryJobs.TOPIC_MEMORY, (tenant, id) -> writer.write(tenant, UUID.fromString(id)));
        }
    }
}
