package dev.memoir.writing;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

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
import dev.memoir.memory.ScoredMemory;
import dev.memoir.memory.Speaker;
import dev.memoir.session.OpenSession;
import dev.memoir.session.Role;
import dev.memoir.session.SessionService;
import dev.memoir.session.TurnView;

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

    private final SessionService sessions;
    private final MemoryStore store;
    private final ChatModelClient model;
    private final PromptTemplates prompts;
    private final TransactionTemplate transaction;
    private final TopicExtractionRepository extractions;
    private final TopicCandidateRepository candidates;
    private final TopicProperties properties;

    private final DialogueParts dialogueParts;

    TopicMemoryWriter(SessionService sessions, MemoryStore store, ChatModelClient model, PromptTemplates prompts,
            TransactionTemplate transaction, TopicExtractionRepository extractions,
            TopicCandidateRepository candidates, TopicProperties properties, DialogueParts dialogueParts) {
        this.dialogueParts = dialogueParts;
        this.sessions = sessions;
        this.store = store;
        this.model = model;
        this.prompts = prompts;
        this.transaction = transaction;
        this.extractions = extractions;
        this.candidates = candidates;
        this.properties = properties;
    }

    void write(UUID sessionId) {
        OpenSession session = sessions.findForJob(sessionId).orElse(null);
        List<TurnView> turns = sessions.allTurns(sessionId);
        if (session == null || turns.isEmpty()) {
            return;
        }
        for (Speaker speaker : Speaker.values()) {
            if (!extractions.existsBySessionIdAndSpeaker(sessionId, speaker)) {
                extract(sessionId, speaker, turns);
            }
            for (TopicCandidate candidate : candidates
                    .findBySessionIdAndSpeakerAndAppliedAtIsNullOrderByPositionAsc(sessionId, speaker)) {
                apply(session, candidate);
            }
        }
    }

    private void extract(UUID sessionId, Speaker speaker, List<TurnView> turns) {
        // Turns keep their session-wide numbers in every part, so references need no translation.
        List<TopicAnswers.Extracted> extracted = new ArrayList<>();
        for (DialogueParts.Part part : dialogueParts.split(turns,
                i -> "[Turn " + i + "] " + label(turns.get(i).role()) + ": " + turns.get(i).content())) {
            String prompt = prompts.render("topic-extraction", Map.of("speaker", label(speaker),
                    "dialogue", part.text()));
            model.askJson(ChatStep.TOPIC_EXTRACTION, List.of(new UserMessage(prompt)),
                            TopicAnswers.EXTRACTION_SCHEMA, TopicAnswers::extracted).stream()
                    .map(found -> found.within(part.offset(), part.offset() + part.turns().size()))
                    .forEach(extracted::add);
        }
        Role role = speaker == Speaker.USER ? Role.USER : Role.ASSISTANT;
        List<UUID> speakerTurns = turns.stream().filter(t -> t.role() == role).map(TurnView::id).toList();
        transaction.executeWithoutResult(status -> {
            for (int i = 0; i < extracted.size(); i++) {
                List<UUID> referenced = extracted.get(i).references().stream()
                        .distinct().map(n -> turns.get(n).id()).toList();
                candidates.save(new TopicCandidate(sessionId, speaker, i, extracted.get(i).summary(),
                        referenced.isEmpty() ? speakerTurns : referenced));
            }
            extractions.save(new TopicExtraction(sessionId, speaker));
        });
    }

    private void apply(OpenSession session, TopicCandidate candidate) {
        List<ScoredMemory> similar = store.nearestOfSpeaker(session.tenant(), session.userId(), MemoryKind.TOPIC,
                candidate.getSpeaker(), store.queryLike(candidate.getSummary()), properties.mergeCandidates());
        List<TopicAnswers.Action> actions = similar.isEmpty() ? List.of(TopicAnswers.Action.add())
                : decide(candidate, similar);
        transaction.executeWithoutResult(status -> {
            if (!sessions.holdForMemoryWrite(session.id())) {
                return;
            }
            Set<Integer> merged = new HashSet<>();
            boolean added = false;
            for (TopicAnswers.Action action : actions) {
                if (action.merge() && merged.add(action.index())) {
                    store.merge(similar.get(action.index()).id(), similar.get(action.index()).text(),
                            action.merged(), session.id(),
                            candidate.getSummary(), candidate.getTurnIds());
                } else if (!action.merge() && !added) {
                    added = true;
                    store.write(new NewMemory(session.tenant(), session.userId(), MemoryKind.TOPIC,
                            candidate.getSummary(), session.id(), candidate.getTurnIds(),
                            "topic:" + candidate.getId(), null, candidate.getSpeaker()));
                }
            }
            candidates.findById(candidate.getId()).ifPresent(TopicCandidate::applied);
        });
    }

    /** The valid actions the model chose for a summary; Add alone when it chose none that can be applied. */
    private List<TopicAnswers.Action> decide(TopicCandidate candidate, List<ScoredMemory> similar) {
        String history = JSON.writeValueAsString(Map.of("history_summaries",
                similar.stream().map(ScoredMemory::text).toList()));
        String prompt = prompts.render("topic-update", Map.of(
                "history", history,
                "summary", JSON.writeValueAsString(Map.of("new_summary", candidate.getSummary()))));
        List<Optional<TopicAnswers.Action>> answered = model.askJson(ChatStep.TOPIC_UPDATE,
                List.of(new UserMessage(prompt)), TopicAnswers.UPDATE_SCHEMA, TopicAnswers::actions);
        List<TopicAnswers.Action> valid = new ArrayList<>();
        for (Optional<TopicAnswers.Action> action : answered) {
            if (action.isEmpty()) {
                log.warn("Ignored a malformed topic-memory action for candidate {}", candidate.getId());
            } else if (action.get().merge() && (action.get().index() < 0 || action.get().index() >= similar.size())) {
                log.warn("Ignored Merge({}) for candidate {}: only {} history summaries were shown",
                        action.get().index(), candidate.getId(), similar.size());
            } else {
                valid.add(action.get());
            }
        }
        return valid.isEmpty() ? List.of(TopicAnswers.Action.add()) : valid;
    }

    private static String label(Role role) {
        return role == Role.USER ? "USER" : "ASSISTANT";
    }

    private static String label(Speaker speaker) {
        return speaker == Speaker.USER ? "USER" : "ASSISTANT";
    }
}
