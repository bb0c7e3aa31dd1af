package dev.memoir.retrieval;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.IntStream;

import org.springframework.stereotype.Service;

import dev.memoir.llm.ChatModelClient;
import dev.memoir.llm.PromptValues;
import dev.memoir.memory.ScoredMemory;
import dev.memoir.session.SessionRef;

/**
 * Self-reflection retrieval (conditional-memory paper): after a search the model judges whether the memories
 * suffice. If they do, only the ones it names as relevant go to the reply. If not, its keywords extend the query for
 * another search, at most {@code reflectionRounds} times; after the last round every memory found so far is used.
 */
@Service
class SelfReflectiveRetriever {

    private final RecordRetriever records;
    private final ChatModelClient model;

    SelfReflectiveRetriever(RecordRetriever records, ChatModelClient model) {
        this.records = records;
        this.model = model;
    }

    Retrieval retrieve(SessionRef session, String message, Collection<UUID> excludedTurnIds) {
        Map<UUID, ScoredMemory> found = new LinkedHashMap<>();
        addAll(found, records.retrieve(session, message, excludedTurnIds));
        int searches = 1;
        List<String> keywords = new ArrayList<>();
        for (int round = 0; round < session.settings().reflectionRounds() && !found.isEmpty(); round++) {
            List<ScoredMemory> candidates = ranked(found);
            Optional<ReflectionVerdict> reflection = reflect(message, candidates);
            if (reflection.isEmpty()) {
                break;
            }
            ReflectionVerdict verdict = reflection.get();
            if (verdict.sufficient()) {
                List<ScoredMemory> relevant = verdict.relevant().stream()
                        .filter(n -> n >= 1 && n <= candidates.size())
                        .distinct()
                        .map(n -> candidates.get(n - 1))
                        .toList();
                // Numbers that all miss the list are a garbled answer, not a choice of none.
                boolean garbled = relevant.isEmpty() && !verdict.relevant().isEmpty();
                return new Retrieval(garbled ? candidates : relevant, searches, keywords);
            }
            if (verdict.keywords().isEmpty()) {
                break;
            }
            keywords.addAll(verdict.keywords());
            String extendedQuery = message + "\n" + String.join(", ", verdict.keywords());
            addAll(found, records.retrieve(session, extendedQuery, excludedTurnIds));
            searches++;
        }
        return new Retrieval(ranked(found), searches, keywords);
    }

    /** The model's verdict, or empty when its answer is unreadable and the memories should be used as found. */
    Optional<ReflectionVerdict> reflect(String message, List<ScoredMemory> candidates) {
        List<String> numbered = IntStream.range(0, candidates.size())
                .mapToObj(i -> (i + 1) + ". " + candidates.get(i).text())
                .toList();
        return model.askOrEmpty(
                ReflectionVerdict.STEP,
                PromptValues.create()
                        .items("memories", numbered, "\n", "")
                        .text("message", message)
                        .fixed("count", Integer.toString(candidates.size())));
    }

    private static void addAll(Map<UUID, ScoredMemory> found, List<ScoredMemory> more) {
        for (ScoredMemory memory : more) {
            found.merge(memory.id(), memory, (a, b) -> a.score() >= b.score() ? a : b);
        }
    }

    private static List<ScoredMemory> ranked(Map<UUID, ScoredMemory> found) {
        return found.values().stream()
                .sorted(Comparator.comparingDouble(ScoredMemory::score).reversed())
                .toList();
    }
}
