package dev.memoir.retrieval;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.swagger.v3.oas.annotations.media.Schema;

import org.springframework.stereotype.Service;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.memoir.common.prompt.QuotedText;
import dev.memoir.llm.ChatModelClient;
import dev.memoir.llm.ModelStep;
import dev.memoir.llm.PromptValues;
import dev.memoir.memory.MemorySearches;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.memory.api.Trust;
import dev.memoir.tenant.TenantId;

/**
 * Recursive reasoning-based retrieval, R^3 (RAM): the model thinks step by step, searching the user's
 * memory with keywords of its own (Search[...]) until it can answer (Finish[...]), so that a multi-hop question
 * is answered from several memories found one after another. A trial that runs out of steps answers from what it
 * found. Earlier answers and what the user said about them are part of the scratchpad (RAM's feedback learning
 * reasons again this way).
 */
@Service
public class RecursiveReasoner {

    /** The answer of a trial that ran out of steps, from what it found; counted with the search steps as reasoning. */
    private static final ModelStep<String> INFERENCE =
            ModelStep.text("r3-inference").labelled("reasoning");

    private final ChatModelClient model;
    private final RamProperties properties;
    private final MemorySearches searches;

    RecursiveReasoner(ChatModelClient model, RamProperties properties, MemorySearches searches) {
        this.searches = searches;
        this.model = model;
        this.properties = properties;
    }

    /** One attempt's reasoning: its steps, the answer they led to, and the memories it found (best first). */
    public record Reasoning(List<Step> steps, String inference, List<ScoredMemory> memories) {

        public List<UUID> memoryIds() {
            return memories.stream().map(ScoredMemory::id).toList();
        }
    }

    @Schema(description = "One reasoning step: a thought, an action (search or finish) and what it observed")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Step(String thought, String action, String argument, String observation) {}

    /** An earlier attempt at the question and what the user said about it (verdict and hint may be null). */
    public record EarlierAnswer(int number, String answer, String verdict, String hint) {}

    /**
     * Reasons once over the user's memory.
     *
     * @param earlier         earlier answers to the question, with the user's feedback on them
     * @param excludedTurnIds turns whose memories are not searched: the question and replies already in view
     * @param minTrust        the least trust of a memory searched; null for any
     */
    public Reasoning reason(
            TenantId tenant,
            String userId,
            String question,
            List<EarlierAnswer> earlier,
            Collection<UUID> excludedTurnIds,
            Trust minTrust) {
        List<Step> steps = new ArrayList<>();
        Map<UUID, ScoredMemory> found = new LinkedHashMap<>();
        List<String> earlierTrials = describe(earlier);
        for (int step = 1; step <= properties.maxSteps(); step++) {
            Optional<ReasoningStep> next = model.askOrEmpty(
                    ReasoningStep.STEP,
                    PromptValues.create()
                            .text("question", QuotedText.of(question))
                            .items("earlier", earlierTrials, "\n", NO_EARLIER_TRIALS)
                            .items("scratchpad", scratchpad(steps), "", ""));
            if (next.isEmpty()) {
                steps.add(new Step(
                        null,
                        "invalid",
                        null,
                        "No valid action: answer with search and keywords, or finish and the answer."));
                continue;
            }
            ReasoningStep reasoning = next.get();
            if (reasoning.action() == ReasoningStep.Action.FINISH) {
                steps.add(new Step(reasoning.thought(), "finish", reasoning.argument(), null));
                return done(steps, reasoning.argument(), found);
            }
            List<ScoredMemory> results = searches.nearest(
                    tenant,
                    userId,
                    EnumSet.allOf(MemoryKind.class),
                    searches.query(reasoning.argument()),
                    properties.searchResults(),
                    excludedTurnIds,
                    minTrust);
            results.forEach(m -> found.merge(m.id(), m, (a, b) -> a.score() >= b.score() ? a : b));
            steps.add(new Step(
                    reasoning.thought(),
                    "search",
                    reasoning.argument(),
                    results.isEmpty()
                            ? "Nothing found."
                            : results.stream().map(ScoredMemory::text).collect(Collectors.joining(" | "))));
        }
        return done(steps, infer(question, earlier, found), found);
    }

    private String infer(String question, List<EarlierAnswer> earlier, Map<UUID, ScoredMemory> found) {
        return model.ask(
                        INFERENCE,
                        PromptValues.create()
                                .text("question", QuotedText.of(question))
                                .items("feedback", describe(earlier), "\n", NO_EARLIER_TRIALS)
                                .items(
                                        "memories",
                                        found.values().stream()
                                                .map(memory -> "- " + QuotedText.of(memory.text()))
                                                .toList(),
                                        "\n",
                                        "(nothing found)"))
                .strip();
    }

    private static Reasoning done(List<Step> steps, String inference, Map<UUID, ScoredMemory> found) {
        List<ScoredMemory> memories = found.values().stream()
                .sorted(Comparator.comparingDouble(ScoredMemory::score).reversed())
                .toList();
        return new Reasoning(List.copyOf(steps), inference, memories);
    }

    /** The steps so far, one item each, so that a long observation is shortened within its own step. */
    private static List<String> scratchpad(List<Step> steps) {
        return IntStream.range(0, steps.size())
                .mapToObj(i -> {
                    Step s = steps.get(i);
                    int n = i + 1;
                    StringBuilder line = new StringBuilder();
                    if (s.thought() != null) {
                        line.append("Thought ")
                                .append(n)
                                .append(": ")
                                .append(QuotedText.of(s.thought()))
                                .append('\n');
                    }
                    if (s.argument() != null) {
                        // Defused as a whole: an argument "/INST" would make "[/INST]" with the bracket around it.
                        line.append("Action ")
                                .append(n)
                                .append(": ")
                                .append(QuotedText.of(
                                        (s.action().equals("search") ? "Search[" : "Finish[") + s.argument() + "]"))
                                .append("\n");
                    }
                    if (s.observation() != null) {
                        line.append("Observation ")
                                .append(n)
                                .append(": ")
                                .append(QuotedText.of(s.observation()))
                                .append('\n');
                    }
                    return line.toString();
                })
                .toList();
    }

    /** What a prompt shows when there is no earlier trial. */
    public static final String NO_EARLIER_TRIALS = "(none)";

    /** Earlier answers and the feedback on them, one item per trial, as the scratchpad shows them. */
    public static List<String> describe(List<EarlierAnswer> earlier) {
        return earlier.stream()
                .map(t -> {
                    StringBuilder text = new StringBuilder("Trial ")
                            .append(t.number())
                            .append(" answered: ")
                            .append(QuotedText.of(t.answer()));
                    if (t.verdict() != null) {
                        text.append("\n  The user said this is ")
                                .append(t.verdict())
                                .append('.');
                    }
                    if (t.hint() != null) {
                        text.append("\n  The user's hint: ").append(QuotedText.of(t.hint()));
                    }
                    return text.toString();
                })
                .toList();
    }
}
