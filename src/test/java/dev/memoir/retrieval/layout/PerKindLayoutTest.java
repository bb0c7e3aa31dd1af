package dev.memoir.retrieval.layout;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.memoir.llm.TokenCounter;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.MemoryOrigin;
import dev.memoir.memory.api.Provenance;
import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.memory.api.TurnOrigin;
import dev.memoir.retrieval.ReplyContext;
import dev.memoir.session.api.Role;
import dev.memoir.session.api.TurnView;

/** The memory part of the reply prompt, laid out from what retrieval recalled, without a database or Spring. */
class PerKindLayoutTest {

    private static final MemoryOrigin LIVE = MemoryOrigin.ofTurn(true, TurnOrigin.LIVE);

    private static final String HEADERS =
            "[What you know about the user and yourself]:\n\n\n[Related evidences]:\n\n\n" + "[Memory]:\n";
    private static final UUID SESSION = UUID.randomUUID();

    private final TokenCounter tokens = new TokenCounter();

    private static ScoredMemory memory(MemoryKind kind, String text, Instant from, Instant to, UUID... turnIds) {
        return new ScoredMemory(
                UUID.randomUUID(),
                kind,
                kind == MemoryKind.MEMO ? "Music" : null,
                text,
                0.5,
                new Provenance(SESSION, List.of(turnIds), LIVE),
                from,
                to,
                null);
    }

    private static ScoredMemory record(MemoryKind kind, String text) {
        return memory(kind, text, null, null);
    }

    private static TurnView turn(Role role, String content) {
        return new TurnView(
                UUID.randomUUID(),
                SESSION,
                0,
                role,
                null,
                content,
                Instant.EPOCH,
                Instant.EPOCH,
                null,
                TurnOrigin.LIVE);
    }

    private static Recalled recalled(List<ScoredMemory> memories, Map<UUID, List<TurnView>> dialogues) {
        return new Recalled(memories, dialogues, Map.of(), List.of(), "");
    }

    private static String words(int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append(" word").append(i);
        }
        return text.toString().strip();
    }

    @Test
    void laysOutTheSummaryTheMemosWithTheirDialogueAndTheNumberedRecordsInRecallOrder() {
        TurnView said = turn(Role.USER, "I play the violin");
        TurnView answered = turn(Role.ASSISTANT, "Lovely.");
        ScoredMemory summary = record(MemoryKind.RECURSIVE_SUMMARY, "The user is a violinist.");
        ScoredMemory memo = memory(
                MemoryKind.MEMO,
                "They talked about the violin.",
                Instant.parse("2023-05-08T10:00:00Z"),
                Instant.parse("2023-05-10T09:00:00Z"),
                said.id(),
                answered.id());
        ScoredMemory history = memory(
                MemoryKind.HISTORY, "User: My sister lives in Oslo", Instant.parse("2023-05-08T11:00:00Z"), null);
        ScoredMemory note = record(MemoryKind.CONDITIONAL, "The user likes tea.");

        MemoryPrompt prompt = PerKindLayout.build(
                recalled(List.of(summary, memo, history, note), Map.of(memo.id(), List.of(said, answered))),
                1000,
                0.2,
                tokens);

        assertThat(prompt.text()).isEqualTo("""
                [What you know about the user and yourself]:
                \tThe user is a violinist.

                [Related evidences]:
                (1) Topic: Music
                Date: 2023-05-08 to 2023-05-10
                Summary: They talked about the violin.
                Dialogue: user: I play the violin ### assistant: Lovely.

                [Memory]:
                1. [history, 2023-05-08] User: My sister lives in Oslo
                2. [conditional, date unknown] The user likes tea.""");
        assertThat(prompt.included()).containsExactly(summary, memo, history, note);
        assertThat(prompt.numbered()).containsExactly(history, note);
    }

    @Test
    void citationsNameTheNumberedRecordsOnceAndNumbersOutsideTheListAreIgnored() {
        ScoredMemory first = record(MemoryKind.HISTORY, "User: I keep bees.");
        ScoredMemory second = record(MemoryKind.TOPIC, "The user keeps three hives.");
        MemoryPrompt prompt = PerKindLayout.build(
                recalled(List.of(record(MemoryKind.RECURSIVE_SUMMARY, "A beekeeper."), first, second), Map.of()),
                1000,
                0.2,
                tokens);

        ReplyContext context = new ReplyContext(
                prompt.text(), prompt.included(), prompt.numbered(), prompt.shown(), 1, List.of(), Optional.empty());
        assertThat(context.cited(List.of(2, 2, 0, 3, -1, 1))).containsExactly(second, first);
    }

    @Test
    void nothingRecalledSaysSo() {
        MemoryPrompt prompt = PerKindLayout.build(recalled(List.of(), Map.of()), 1000, 0.2, tokens);

        assertThat(prompt.text()).isEqualTo("(nothing remembered yet)");
        assertThat(prompt.included()).isEmpty();
        assertThat(prompt.numbered()).isEmpty();
    }

    @Test
    void aMemoWhoseTurnsAreGoneShowsItsSummaryWithAnEmptyDialogue() {
        ScoredMemory memo = memory(MemoryKind.MEMO, "They talked about bees.", null, null, UUID.randomUUID());

        MemoryPrompt prompt = PerKindLayout.build(recalled(List.of(memo), Map.of()), 1000, 0.2, tokens);

        assertThat(prompt.text()).isEqualTo("""
                [Related evidences]:
                (1) Topic: Music
                Date: date unknown
                Summary: They talked about bees.
                Dialogue: \
                """);
    }

    @Test
    void theHeadersArePaidForFirstAndTheLowerRankedRecordsAreCutThenDropped() {
        ScoredMemory whole = record(MemoryKind.HISTORY, "User: I moved to Porto in March.");
        ScoredMemory cut = record(MemoryKind.HISTORY, words(200));
        ScoredMemory dropped = record(MemoryKind.HISTORY, "User: I have a cat.");
        String firstEntry = "1. [history, date unknown] " + whole.text();
        int budget = tokens.count(HEADERS) + tokens.count(firstEntry) + 1 + 20;

        MemoryPrompt prompt =
                PerKindLayout.build(recalled(List.of(whole, cut, dropped), Map.of()), budget, 0.2, tokens);

        String cutEntry = tokens.truncate("2. [history, date unknown] " + cut.text(), 20);
        assertThat(cutEntry).endsWith("…");
        assertThat(prompt.text()).isEqualTo("[Memory]:\n" + firstEntry + "\n" + cutEntry);
        assertThat(prompt.included()).containsExactly(whole, cut);
        assertThat(prompt.numbered()).containsExactly(whole, cut);
    }

    @Test
    void anEntryLeftFewerThanSixteenTokensIsDroppedRatherThanCut() {
        ScoredMemory whole = record(MemoryKind.HISTORY, "User: I moved to Porto in March.");
        ScoredMemory tooLong = record(MemoryKind.HISTORY, words(200));
        String firstEntry = "1. [history, date unknown] " + whole.text();
        int budget = tokens.count(HEADERS) + tokens.count(firstEntry) + 1 + 15;

        MemoryPrompt prompt = PerKindLayout.build(recalled(List.of(whole, tooLong), Map.of()), budget, 0.2, tokens);

        assertThat(prompt.text()).isEqualTo("[Memory]:\n" + firstEntry);
        assertThat(prompt.included()).containsExactly(whole);
    }

    @Test
    void aMemoTakesAtMostHalfTheBudgetByShorteningItsDialogue() {
        TurnView said = turn(Role.USER, words(400));
        ScoredMemory memo = memory(MemoryKind.MEMO, "A long talk.", null, null, said.id());
        ScoredMemory after = record(MemoryKind.HISTORY, "User: I have a cat.");

        MemoryPrompt prompt =
                PerKindLayout.build(recalled(List.of(memo, after), Map.of(memo.id(), List.of(said))), 300, 0.2, tokens);

        String head = "(1) Topic: Music\nDate: date unknown\nSummary: A long talk.\nDialogue: ";
        String evidence = head + tokens.truncate("user: " + said.content(), 150 - tokens.count(head) - 1);
        assertThat(evidence).endsWith("…");
        assertThat(prompt.text())
                .isEqualTo("[Related evidences]:\n" + evidence
                        + "\n\n[Memory]:\n1. [history, date unknown] User: I have a cat.");
        assertThat(prompt.included()).containsExactly(memo, after);
        assertThat(prompt.numbered()).containsExactly(after);
    }
}
