package dev.memoir.retrieval.layout;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.memoir.llm.TokenCounter;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.MemoryOrigin;
import dev.memoir.memory.api.Provenance;
import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.memory.api.SearchExplanation;
import dev.memoir.memory.api.TurnOrigin;
import dev.memoir.session.api.Role;
import dev.memoir.session.api.TurnView;

/** The reply's memory filled to its token budget from one ranking, without a database or Spring. */
class BudgetedLayoutTest {

    private static final MemoryOrigin LIVE = MemoryOrigin.ofTurn(true, TurnOrigin.LIVE);

    private static final UUID MAY = UUID.randomUUID();
    private static final UUID JUNE = UUID.randomUUID();
    private static final Instant MAY_8 = Instant.parse("2023-05-08T10:00:00Z");
    private static final Instant JUNE_2 = Instant.parse("2023-06-02T18:00:00Z");

    private final TokenCounter tokens = new TokenCounter();
    private final Map<UUID, List<TurnView>> surroundings = new HashMap<>();

    private static TurnView turn(UUID session, int seq, Role role, String speaker, String content, Instant at) {
        return new TurnView(UUID.randomUUID(), session, seq, role, speaker, content, at, at, null, TurnOrigin.LIVE);
    }

    private static ScoredMemory utterance(TurnView turn) {
        return new ScoredMemory(
                UUID.randomUUID(),
                MemoryKind.HISTORY,
                null,
                turn.asLine(),
                0.5,
                new Provenance(turn.sessionId(), List.of(turn.id()), LIVE),
                turn.occurredAt(),
                null,
                null);
    }

    private static ScoredMemory derived(MemoryKind kind, String text, TurnView from) {
        return new ScoredMemory(
                UUID.randomUUID(),
                kind,
                null,
                text,
                0.5,
                new Provenance(from.sessionId(), List.of(from.id()), LIVE),
                from.occurredAt(),
                null,
                null);
    }

    private static ScoredMemory fact(String text) {
        return new ScoredMemory(
                UUID.randomUUID(),
                MemoryKind.FACT,
                null,
                text,
                0.5,
                new Provenance(null, List.of(), LIVE),
                JUNE_2,
                null,
                null);
    }

    /** A history memory of a turn, read with its neighbours, as retrieval hands it over. */
    private ScoredMemory utteranceAmong(List<TurnView> session, int index) {
        ScoredMemory memory = utterance(session.get(index));
        surroundings.put(memory.id(), session.subList(Math.max(0, index - 1), Math.min(session.size(), index + 2)));
        return memory;
    }

    private Recalled ranked(List<ScoredMemory> memories) {
        return ranked(memories, "");
    }

    private Recalled ranked(List<ScoredMemory> memories, String message) {
        return new Recalled(memories, Map.of(), Map.copyOf(surroundings), List.of(), message);
    }

    private MemoryPrompt lay(List<ScoredMemory> memories, int budget, String message) {
        return BudgetedLayout.build(
                ranked(memories, message), budget, new LayoutLimits(0.2, 160, 600, 64, 48, 4), tokens);
    }

    private static SearchExplanation fused(double score) {
        return new SearchExplanation(1, 0.8, null, null, null, null, null, null, score);
    }

    private static ScoredMemory scored(ScoredMemory memory, double fusedScore) {
        return new ScoredMemory(
                memory.id(),
                memory.kind(),
                memory.topic(),
                memory.text(),
                memory.score(),
                memory.provenance(),
                memory.occurredFrom(),
                memory.occurredTo(),
                fused(fusedScore));
    }

    /** A session of long user turns, each about a step of a project. */
    private static List<TurnView> longSession(UUID session, int count) {
        List<TurnView> turns = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            turns.add(turn(
                    session,
                    i,
                    Role.USER,
                    null,
                    "In step " + i + " of the budget tracker I worked on part " + i + ". "
                            + ("It needed careful thought about part " + i + " and its tests. ").repeat(20),
                    MAY_8.plusSeconds(i * 600L)));
        }
        return turns;
    }

    private MemoryPrompt lay(List<ScoredMemory> memories, int budget) {
        return BudgetedLayout.build(ranked(memories), budget, new LayoutLimits(0.2, 256, 256, 256, 48, 4), tokens);
    }

    @Test
    void memoriesAreGroupedUnderALinePerSessionAndDateInDialogueOrderWithFactsFirst() {
        TurnView oslo = turn(JUNE, 4, Role.USER, "Caroline", "My sister moved to Oslo.", JUNE_2);
        TurnView violin = turn(MAY, 2, Role.USER, "Caroline", "I started violin lessons.", MAY_8);
        ScoredMemory tea = fact("Caroline drinks green tea.");

        MemoryPrompt prompt = lay(List.of(utterance(oslo), tea, utterance(violin)), 1000);

        assertThat(prompt.text()).isEqualTo("""
                [Memory]:
                Told directly:
                1. [fact, 2023-06-02] Caroline drinks green tea.
                Session of 2023-05-08:
                2. Caroline: I started violin lessons.
                Session of 2023-06-02:
                3. Caroline: My sister moved to Oslo.""");
        assertThat(prompt.numbered())
                .extracting(ScoredMemory::text)
                .containsExactly(
                        "Caroline drinks green tea.",
                        "Caroline: I started violin lessons.",
                        "Caroline: My sister moved to Oslo.");
        assertThat(prompt.included()).isEqualTo(prompt.numbered());
    }

    @Test
    void aRetrievedUtteranceBringsTheTurnsBeforeAndAfterItUnnumbered() {
        List<TurnView> dialogue = List.of(
                turn(MAY, 0, Role.USER, "Melanie", "Did you ever go to the lighthouse festival?", MAY_8),
                turn(MAY, 1, Role.ASSISTANT, "Caroline", "Yes, exactly! Last weekend, with my sister.", MAY_8),
                turn(MAY, 2, Role.USER, "Melanie", "How lovely.", MAY_8));

        MemoryPrompt prompt = lay(List.of(utteranceAmong(dialogue, 1)), 1000);

        assertThat(prompt.text()).isEqualTo("""
                [Memory]:
                Session of 2023-05-08:
                   Melanie: Did you ever go to the lighthouse festival?
                1. Caroline: Yes, exactly! Last weekend, with my sister.
                   Melanie: How lovely.""");
        assertThat(prompt.numbered()).hasSize(1);
    }

    @Test
    void neighboursAlreadyRetrievedAreShownOnceAsTheirOwnEntries() {
        List<TurnView> dialogue = List.of(
                turn(MAY, 0, Role.USER, "Melanie", "Did you ever go to the lighthouse festival?", MAY_8),
                turn(MAY, 1, Role.ASSISTANT, "Caroline", "Yes, exactly! Last weekend, with my sister.", MAY_8));

        MemoryPrompt prompt = lay(List.of(utteranceAmong(dialogue, 1), utteranceAmong(dialogue, 0)), 1000);

        assertThat(prompt.text()).isEqualTo("""
                [Memory]:
                Session of 2023-05-08:
                1. Melanie: Did you ever go to the lighthouse festival?
                2. Caroline: Yes, exactly! Last weekend, with my sister.""");
    }

    @Test
    void aNoteThatOnlyRepeatsTheUtteranceItCameFromCountsOnceWhicheverComesFirst() {
        TurnView said = turn(MAY, 0, Role.USER, "Caroline", "I adopted a grey cat named Luna last week.", MAY_8);
        ScoredMemory repeating = derived(MemoryKind.CONDITIONAL, "Caroline adopted a grey cat named Luna.", said);
        ScoredMemory adding = derived(MemoryKind.CONDITIONAL, "Caroline now has a pet and may need vet tips.", said);
        ScoredMemory history = utteranceAmong(List.of(said), 0);

        MemoryPrompt noteFirst = lay(List.of(repeating, adding, history), 1000);
        MemoryPrompt utteranceFirst = lay(List.of(history, repeating, adding), 1000);

        for (MemoryPrompt prompt : List.of(noteFirst, utteranceFirst)) {
            assertThat(prompt.numbered()).containsExactlyInAnyOrder(history, adding);
            assertThat(prompt.text()).doesNotContain("Caroline adopted a grey cat");
        }
    }

    @Test
    void theMemoryIsFilledUpToItsBudgetAndNeverBeyond() {
        List<ScoredMemory> many = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            many.add(utterance(turn(
                    MAY,
                    i,
                    Role.USER,
                    "Caroline",
                    "On day " + i + " I watered the tomatoes and the beans in the garden.",
                    MAY_8.plusSeconds(i))));
        }

        for (int budget : List.of(300, 1000, 2000)) {
            MemoryPrompt prompt = lay(many, budget);

            int used = tokens.count(prompt.text());
            assertThat(used)
                    .as("memory tokens for a budget of %d", budget)
                    .isLessThanOrEqualTo(budget)
                    .isGreaterThan(budget * 9 / 10);
            assertThat(prompt.numbered())
                    .as("shown in ranking order: the best first")
                    .containsExactlyInAnyOrderElementsOf(
                            many.subList(0, prompt.numbered().size()));
        }
    }

    @Test
    void aLongMemoryIsShownByItsOpeningAndThePassageSearchMatched() {
        String before = "We discussed the weather and the garden for a long while. ".repeat(60);
        String evidence = "The appointment with the dentist is on the fourteenth at nine.";
        String after = " Then we talked about films and books we liked. ".repeat(60);
        String text = "Assistant: " + before + evidence + after;
        int start = text.indexOf(evidence);
        SearchExplanation matched = new SearchExplanation(
                1,
                0.8,
                new SearchExplanation.Passage(3, start - 40, start + evidence.length() + 40),
                null,
                null,
                null,
                null,
                null,
                0.05);
        ScoredMemory answer = new ScoredMemory(
                UUID.randomUUID(),
                MemoryKind.HISTORY,
                null,
                text,
                0.8,
                new Provenance(MAY, List.of(UUID.randomUUID()), LIVE),
                MAY_8,
                null,
                matched);

        MemoryPrompt prompt = lay(List.of(answer), 3000);

        assertThat(prompt.text())
                .contains("1. Assistant: We discussed the weather")
                .contains(" … ")
                .contains(evidence)
                .endsWith("…");
        assertThat(tokens.count(prompt.text())).isLessThan(tokens.count(text) / 4);
    }

    @Test
    void withNothingRecalledThePromptSaysSo() {
        assertThat(lay(List.of(), 1000).text()).isEqualTo("(nothing remembered yet)");
    }

    @Test
    void aTurnThatNearlyRepeatsOneShownCountsOnce() {
        String pasted = "I'm getting sqlite3.IntegrityError: UNIQUE constraint failed: transactions.id when I "
                + "insert a new transaction from the POST route, and I cannot see why the id repeats.";
        List<TurnView> session = List.of(
                turn(MAY, 0, Role.USER, null, pasted, MAY_8),
                turn(MAY, 1, Role.ASSISTANT, null, "Let us look at the insert.", MAY_8),
                turn(MAY, 8, Role.USER, null, "Still: " + pasted, MAY_8.plusSeconds(3600)));
        ScoredMemory first = utterance(session.get(0));
        ScoredMemory again = utterance(session.get(2));

        MemoryPrompt prompt = lay(List.of(first, again), 2000);

        assertThat(prompt.numbered()).containsExactly(first);
    }

    @Test
    void anOverviewQuestionShowsMoreAndShorterExcerptsSpreadOverTheDialogueInDialogueOrder() {
        List<TurnView> session = longSession(MAY, 40);
        List<ScoredMemory> ranking = new ArrayList<>();
        // The ranking crowds around the middle of the dialogue, as a topical search does.
        for (int seq : new int[] {20, 21, 19, 22, 18, 23, 2, 35, 10, 28}) {
            ranking.add(utteranceAmong(session, seq));
        }

        MemoryPrompt pointed = lay(ranking, 600, "What did I do in step 20?");
        MemoryPrompt overview = lay(ranking, 600, "Summarize how my budget tracker developed over time.");

        assertThat(overview.numbered().size()).isGreaterThan(pointed.numbered().size());
        List<Integer> shownSteps = overview.numbered().stream()
                .map(memory -> session.stream()
                        .filter(turn -> memory.provenance().turnIds().contains(turn.id()))
                        .findFirst()
                        .orElseThrow()
                        .seq())
                .toList();
        assertThat(shownSteps).as("in dialogue order").isSorted().contains(2, 10, 35, 28);
        assertThat(overview.text())
                .as("no neighbours: room for more of the arc")
                .doesNotContain("\n   ");
    }

    @Test
    void aFirstMemoryFarAheadOfTheNextIsShownAtMoreLengthThanWhenItTies() {
        List<TurnView> session = longSession(MAY, 3);
        ScoredMemory first = utterance(session.get(0));
        ScoredMemory second = utterance(session.get(2));

        MemoryPrompt dominant = lay(List.of(scored(first, 0.09), scored(second, 0.03)), 3000, "step 0");
        MemoryPrompt tied = lay(List.of(scored(first, 0.05), scored(second, 0.045)), 3000, "step 0");

        int dominantLength = tokens.count(dominant.text()
                .lines()
                .filter(line -> line.startsWith("1. "))
                .findFirst()
                .orElseThrow());
        int tiedLength = tokens.count(tied.text()
                .lines()
                .filter(line -> line.startsWith("1. "))
                .findFirst()
                .orElseThrow());
        assertThat(dominantLength).isGreaterThan(tiedLength).isGreaterThan(200);
        assertThat(tiedLength).isLessThanOrEqualTo(160 + 3);
    }
}
