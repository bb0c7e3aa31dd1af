package dev.memoir.reflection;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.springframework.stereotype.Service;

import dev.memoir.llm.ChatModelClient;
import dev.memoir.llm.ModelStep;
import dev.memoir.memory.MemoryKind;
import dev.memoir.memory.MemoryStore;
import dev.memoir.memory.ScoredMemory;
import dev.memoir.tenant.TenantId;

/**
 * Recursive reasoning-based retrieval, R^3 (RAM): the model thinks step by step, searching the user's
 * memory with keywords of its own (Search[...]) until it can answer (Finish[...]), so that a multi-hop question
 * is answered from several memories found one after another. A trial that runs out of steps answers from what it
 * found. Earlier trials and the user's feedback on them are part of the scratchpad.
 */
@Service
public class RecursiveReasoner {

    /** The answer of a trial that ran out of steps, from what it found; counted with the search steps as reasoning. */
    private static final ModelStep<String> INFERENCE = ModelStep.text("r3-inference").labelled("reasoning");

    private final MemoryStore store;
    private final ChatModelClient model;
    private final RamProperties properties;

    RecursiveReasoner(MemoryStore store, ChatModelClient model, RamProperties properties) {
        this.store = store;
        this.model = model;
        this.properties = properties;
    }

    /** A trial's outcome, with the memories it found (best first) for the reply's memory list. */
    public record Reasoned(Trial trial, List<ScoredMemory> memories) {
    }

    /**
     * Runs one trial.
     *
     * @param excludedTurnIds turns whose memories are not searched: the question and replies already in view
     */
    public Reasoned reason(TenantId tenant, String userId, String question, List<Trial> earlier, int number,
            java.util.Collection<UUID> excludedTurnIds) {
        List<Trial.Step> steps = new ArrayList<>();
        Map<UUID, ScoredMemory> found = new LinkedHashMap<>();
        String earlierTrials = describe(earlier);
        for (int step = 1; step <= properties.maxSteps(); step++) {
            Optional<ReasoningStep> next = model.askOrEmpty(ReasoningStep.STEP, Map.of("question", question,
                    "earlier", earlierTrials, "scratchpad", scratchpad(steps)));
            if (next.isEmpty()) {
                steps.add(new Trial.Step(null, "invalid", null,
                        "No valid action: answer with search and keywords, or finish and the answer."));
                continue;
            }
            ReasoningStep reasoning = next.get();
            if (reasoning.action() == ReasoningStep.Action.FINISH) {
                steps.add(new Trial.Step(reasoning.thought(), "finish", reasoning.argument(), null));
                return done(number, steps, reasoning.argument(), found);
            }
            List<ScoredMemory> results = store.nearest(tenant, userId, EnumSet.allOf(MemoryKind.class),
                    store.query(reasoning.argument()), properties.searchResults(), excludedTurnIds);
            results.forEach(m -> found.merge(m.id(), m, (a, b) -> a.score() >= b.score() ? a : b));
            steps.add(new Trial.Step(reasoning.thought(), "search", reasoning.argument(), results.isEmpty()
                    ? "Nothing found." : results.stream().map(ScoredMemory::text).collect(Collectors.joining(" | "))));
        }
        return done(number, steps, infer(question, earlier, found), found);
    }

    private String infer(String question, List<Trial> earlier, Map<UUID, ScoredMemory> found) {
        String memories = found.isEmpty() ? "(nothing found)"
                : found.values().stream().map(ScoredMemory::text).collect(Collectors.joining("\n"));
        return model.ask(INFERENCE, Map.of("question", question, "feedback", describe(earlier), "memories", memories))
                .strip();
    }

    private static Reasoned done(int number, List<Trial.Step> steps, String inference,
            Map<UUID, ScoredMemory> found) {
        List<ScoredMemory> memories = found.values().stream()
                .sorted(java.util.Comparator.comparingDouble(ScoredMemory::score).reversed()).toList();
        return new Reasoned(new Trial(number, List.copyOf(steps), inference,
                memories.stream().map(ScoredMemory::id).toList(), null), memories);
    }

    private static String scratchpad(List<Trial.Step> steps) {
        return IntStream.range(0, steps.size()).mapToObj(i -> {
            Trial.Step s = steps.get(i);
            int n = i + 1;
            StringBuilder line = new StringBuilder();
            if (s.thought() != null) {
                line.append("Thought ").append(n).append(": ").append(s.thought()).append('\n');
            }
            if (s.argument() != null) {
                line.append("Action ").append(n).append(": ").append(s.action().equals("search") ? "Search[" : "Finish[")
                        .append(s.argument()).append("]\n");
            }
            if (s.observation() != null) {
                line.append("Observation ").append(n).append(": ").append(s.observation()).append('\n');
            }
            return line.toString();
        }).collect(Collectors.joining());
    }

    /** Earlier trials and the feedback on them, as the scratchpad shows them. */
    static String describe(List<Trial> earlier) {
        if (earlier.isEmpty()) {
            return "(none)";
        }
        return earlier.stream().map(t -> {
            StringBuilder text = new StringBuilder("Trial ").append(t.number()).append(" answered: ")
                    .append(t.inference());
            if (t.feedback() != null) {
                if (t.feedback().verdict() != null) {
                    text.append("\n  The user said this is ").append(t.feedback().verdict()).append('.');
                }
                if (t.feedback().hint() != null) {
                    text.append("\n  The user's hint: ").append(t.feedback().hint());
                }
            }
            return text.toString();
        }).collect(Collectors.joining("\n"));
    }
}
