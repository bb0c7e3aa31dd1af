package dev.memoir.retrieval.layout;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

import dev.memoir.common.prompt.QuotedText;
import dev.memoir.llm.TokenCounter;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.memory.api.SearchExplanation;
import dev.memoir.session.api.TurnView;

/**
 * The budget layout (the default): lays recalled memories out for the reply prompt until the token budget is full,
 * taking them in the order retrieval ranked them. The user's standing instructions come first, within their share of
 * the budget. Then three passes: the best memories alone up to three quarters of the budget, then the neighbours of
 * the utterances shown (the question before "Yes, exactly!", the answer after a question), then more memories alone
 * while any fits. A long memory is shown by an excerpt: the sentences or lines that bear on the message with the
 * turn's opening, cut at block boundaries (whole when it dominates the ranking). For a question about the order or
 * the arc of the dialogue, each memory is shown by its opening, spread over the dialogue, without neighbours. A turn
 * that nearly repeats one shown, and a note or summary that only repeats it, count once.
 *
 * <p>The [Memory] section is grouped under a line per session and its date, in dialogue order, so that dates are
 * not repeated on every line; memories of no session (facts, corrections) come first, each dated. Entries are
 * numbered in the order shown: the numbers the reply cites.
 */
public final class BudgetedLayout {

    /** The budget's share kept, in the first pass, for neighbours of the utterances shown. */
    private static final double NEIGHBOUR_SHARE = 0.25;

    private static final String NEIGHBOUR_INDENT = "   ";
    /** What a numbered line costs beyond its text, at most: "123. " and its line break. */
    private static final int NUMBER_TOKENS = 3;

    private final TokenCounter tokens;
    private final PerKindLayout pieces;
    private final Excerpt excerpt;
    private final LayoutLimits limits;
    private Set<String> words = Set.of();
    /** The first record, when the ranking puts it far ahead of the next: shown at more length. */
    private ScoredMemory dominant;
    /** Whether the message asks about the arc of the dialogue ({@link OverviewQuestion}). */
    private boolean overview;

    private final NearDuplicates duplicates = new NearDuplicates();

    /** How far ahead, by fused score, the first record must be of the second to be shown at more length. */
    private static final double DOMINANCE = 1.5;

    private int remaining;
    private Instructions instructions;
    private final List<String> profile = new ArrayList<>();
    private final List<String> evidences = new ArrayList<>();
    private final List<ScoredMemory> pinned = new ArrayList<>();
    private final List<Line> records = new ArrayList<>();
    /** Each open group's header as charged so far: it widens to a range of dates when a later day joins it. */
    private final Map<SessionGroup, String> headers = new HashMap<>();

    private final Map<UUID, String> shownTurns = new HashMap<>();

    private BudgetedLayout(TokenCounter tokens, LayoutLimits limits) {
        this.tokens = tokens;
        this.pieces = new PerKindLayout(tokens);
        this.excerpt = new Excerpt(tokens);
        this.limits = limits;
    }

    /**
     * The memory part of the reply prompt, within {@code tokenBudget} tokens, of which the standing instructions take
     * at most {@code instructionShare}.
     *
     * @param limits how long memories, the first memory when it dominates, and neighbours may be shown
     */
    public static MemoryPrompt build(Recalled recalled, int tokenBudget, LayoutLimits limits, TokenCounter tokens) {
        return new BudgetedLayout(tokens, limits).lay(recalled, tokenBudget, limits.instructionShare());
    }

    /** One line of the [Memory] section: a memory (numbered) or a neighbouring turn (not numbered). */
    private record Line(
            ScoredMemory memory, TurnView turn, String text, SessionGroup group, Instant at, int seq, int cost) {

        boolean numbered() {
            return memory != null;
        }
    }

    /** The first of the ranked records if its fused score is {@link #DOMINANCE} times the second's or more. */
    private static ScoredMemory dominant(List<ScoredMemory> memories) {
        List<ScoredMemory> ranked = memories.stream()
                .filter(m -> m.kind() != MemoryKind.RECURSIVE_SUMMARY && m.kind() != MemoryKind.MEMO)
                .limit(2)
                .toList();
        if (ranked.isEmpty() || ranked.getFirst().explanation() == null) {
            return null;
        }
        if (ranked.size() == 1) {
            return ranked.getFirst();
        }
        SearchExplanation second = ranked.get(1).explanation();
        return second == null || ranked.getFirst().explanation().fusedScore() >= DOMINANCE * second.fusedScore()
                ? ranked.getFirst()
                : null;
    }

    /** A text within the tokens given (0: whole), by its opening and what bears on the message. */
    private String shortened(String text, SearchExplanation.Passage passage, int maxTokens) {
        return maxTokens <= 0 ? text : excerpt.of(text, words, passage, maxTokens);
    }

    private MemoryPrompt lay(Recalled recalled, int tokenBudget, double instructionShare) {
        words = Excerpt.contentWords(recalled.message());
        overview = OverviewQuestion.asks(recalled.message());
        dominant = overview ? null : dominant(recalled.memories());
        instructions = Instructions.within(recalled.instructions(), (int) (tokenBudget * instructionShare), tokens);
        // A section's header is paid for when its first entry is: the [Memory] one at once, the others if used.
        remaining = tokenBudget - instructions.cost() - tokens.count(PerKindLayout.RECORDS + ":\n");
        List<ScoredMemory> ranked = new ArrayList<>();
        for (ScoredMemory memory : recalled.memories()) {
            switch (memory.kind()) {
                case RECURSIVE_SUMMARY ->
                    pin(
                            memory,
                            pieces.fit(
                                    QuotedText.block(memory.text()),
                                    remaining - headerOf(profile, PerKindLayout.PROFILE)),
                            profile,
                            PerKindLayout.PROFILE);
                case MEMO ->
                    pin(
                            memory,
                            pieces.memoEvidence(
                                    memory,
                                    recalled.dialogueOf(memory),
                                    evidences.size() + 1,
                                    Math.min(
                                            remaining - headerOf(evidences, PerKindLayout.EVIDENCES), tokenBudget / 2)),
                            evidences,
                            PerKindLayout.EVIDENCES);
                default -> ranked.add(memory);
            }
        }
        if (overview) {
            // Many short excerpts over the whole arc, and no room spent on neighbours.
            ranked = DialogueSpread.of(
                    ranked,
                    turnsOf(ranked, recalled),
                    limits.overviewSpread(),
                    OverviewQuestion.asksForUsersSide(recalled.message()));
        }
        int firstPassEnd = overview ? 0 : (int) (remaining * NEIGHBOUR_SHARE);
        int next = 0;
        while (next < ranked.size() && remaining > firstPassEnd) {
            add(ranked.get(next++), recalled, false);
        }
        for (Line line : overview ? List.<Line>of() : List.copyOf(records)) {
            if (line.numbered() && line.memory().kind() == MemoryKind.HISTORY) {
                addNeighbours(line, recalled.surroundingsOf(line.memory()));
            }
        }
        while (next < ranked.size() && remaining >= PerKindLayout.MIN_USEFUL_TOKENS) {
            add(ranked.get(next++), recalled, true);
        }
        return laidOut();
    }

    private void pin(ScoredMemory memory, String entry, List<String> section, String header) {
        if (entry != null) {
            remaining -= tokens.count(entry) + 1 + headerOf(section, header);
            pinned.add(memory);
            section.add(entry);
        }
    }

    /** What a section's header and the blank line before the next section cost, if the section is still empty. */
    private int headerOf(List<String> section, String header) {
        return section.isEmpty() ? tokens.count(header + ":\n\n\n") : 0;
    }

    /** Adds a memory where it fits; the last pass may shorten one to fill what is left. */
    private void add(ScoredMemory memory, Recalled recalled, boolean mayShorten) {
        TurnView turn = turnOf(memory, recalled);
        if (turn != null && shownTurns.containsKey(turn.id())) {
            return;
        }
        if (NoteRepetition.repeatsShownTurns(memory, shownTurns) || duplicates.repeats(memory.text())) {
            return;
        }
        SessionGroup group = SessionGroup.of(memory);
        String text = entryText(memory);
        String header = headerWith(group, memory.occurredFrom());
        int headerCost = headerCost(group, header);
        int cost = lineCost(text) + headerCost;
        if (cost > remaining) {
            int room = remaining - NUMBER_TOKENS - headerCost;
            if (!mayShorten || room < PerKindLayout.MIN_USEFUL_TOKENS) {
                return;
            }
            text = tokens.truncate(text, room);
            cost = lineCost(text) + headerCost;
            if (cost > remaining) {
                return;
            }
        }
        headers.put(group, header);
        remaining -= cost;
        duplicates.add(memory.text());
        records.add(new Line(memory, null, text, group, memory.occurredFrom(), turn == null ? -1 : turn.seq(), cost));
        if (turn != null) {
            shownTurns.put(turn.id(), turn.asLine());
            dropNotesRepeating();
        }
    }

    /** A numbered line as the prompt will hold it (numbers below 1000 are one token, as this one is). */
    private int lineCost(String text) {
        return tokens.count((records.size() + 1) + ". " + text + "\n");
    }

    private void addNeighbours(Line center, List<TurnView> around) {
        for (TurnView turn : around) {
            if (shownTurns.containsKey(turn.id()) || turn.seq() == center.seq()) {
                continue;
            }
            String text = NEIGHBOUR_INDENT + QuotedText.of(shortened(turn.asLine(), null, limits.neighbourTokens()));
            String header = headerWith(center.group(), turn.occurredAt());
            int cost = tokens.count(text + "\n") + headerCost(center.group(), header);
            if (cost <= remaining) {
                remaining -= cost;
                headers.put(center.group(), header);
                shownTurns.put(turn.id(), turn.asLine());
                records.add(new Line(null, turn, text, center.group(), turn.occurredAt(), turn.seq(), cost));
            }
        }
        dropNotesRepeating();
    }

    /** Notes shown earlier that only repeat utterances shown since: they count once, their room goes back. */
    private void dropNotesRepeating() {
        records.removeIf(line -> {
            if (line.numbered()
                    && line.memory().kind() != MemoryKind.HISTORY
                    && NoteRepetition.repeatsShownTurns(line.memory(), shownTurns)) {
                remaining += line.cost();
                return true;
            }
            return false;
        });
    }

    private static Map<UUID, TurnView> turnsOf(List<ScoredMemory> memories, Recalled recalled) {
        Map<UUID, TurnView> turns = new HashMap<>();
        for (ScoredMemory memory : memories) {
            TurnView turn = turnOf(memory, recalled);
            if (turn != null) {
                turns.put(memory.id(), turn);
            }
        }
        return turns;
    }

    /** The turn a history memory records, as read with its neighbours; null for other memories. */
    private static TurnView turnOf(ScoredMemory memory, Recalled recalled) {
        if (memory.kind() != MemoryKind.HISTORY
                || memory.provenance() == null
                || memory.provenance().turnIds().size() != 1) {
            return null;
        }
        UUID turnId = memory.provenance().turnIds().getFirst();
        return recalled.surroundingsOf(memory).stream()
                .filter(t -> t.id().equals(turnId))
                .findFirst()
                .orElse(null);
    }

    /** The group's header once a line dated {@code at} joins it. */
    private String headerWith(SessionGroup group, Instant at) {
        List<Instant> dated = new ArrayList<>();
        records.stream()
                .filter(line -> line.group().equals(group))
                .map(Line::at)
                .filter(Objects::nonNull)
                .forEach(dated::add);
        if (at != null) {
            dated.add(at);
        }
        return group.header(dated);
    }

    /** What joining the group costs its header: the whole line for a new group, else what widening it adds. */
    private int headerCost(SessionGroup group, String header) {
        String charged = headers.get(group);
        int cost = tokens.count(header) + 1;
        return charged == null ? cost : Math.max(0, cost - tokens.count(charged) - 1);
    }

    /** A memory's line without its number: its kind unless it is an utterance, and what it says. */
    private String entryText(ScoredMemory memory) {
        // Quoted once shortened: the passage that chose the excerpt is found in the text as stored.
        String text = QuotedText.of(
                overview && limits.overviewTokens() > 0
                        ? excerpt.opening(memory.text(), limits.overviewTokens())
                        : shortened(
                                memory.text(),
                                memory.explanation() == null
                                        ? null
                                        : memory.explanation().densePassage(),
                                memory == dominant ? limits.dominantTokens() : limits.excerptTokens()));
        String dated = SessionGroup.of(memory).toldDirectly() ? PerKindLayout.dated(memory) : "";
        if (memory.kind() == MemoryKind.HISTORY && dated.isEmpty()) {
            return text;
        }
        return "[" + memory.kind() + dated + "] " + text;
    }

    private MemoryPrompt laidOut() {
        Map<SessionGroup, List<Line>> groups = new LinkedHashMap<>();
        records.stream()
                .sorted(Comparator.comparing((Line line) -> !line.group().toldDirectly())
                        .thenComparing(
                                line -> firstInstant(line.group()), Comparator.nullsLast(Comparator.naturalOrder())))
                .forEach(line -> groups.computeIfAbsent(line.group(), g -> new ArrayList<>())
                        .add(line));
        List<ScoredMemory> numbered = new ArrayList<>();
        List<String> shown = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        for (Map.Entry<SessionGroup, List<Line>> group : groups.entrySet()) {
            List<Line> inOrder = group.getValue().stream()
                    .sorted(Comparator.comparing(Line::at, Comparator.nullsFirst(Comparator.naturalOrder()))
                            .thenComparingInt(Line::seq))
                    .toList();
            lines.add(group.getKey().header(inOrder.stream().map(Line::at).toList()));
            for (Line line : inOrder) {
                if (line.numbered()) {
                    numbered.add(line.memory());
                    shown.add(line.text());
                    lines.add(numbered.size() + ". " + line.text());
                } else {
                    lines.add(line.text());
                }
            }
        }
        List<String> sections = new ArrayList<>();
        PerKindLayout.section(sections, PerKindLayout.INSTRUCTIONS, instructions.lines());
        PerKindLayout.section(sections, PerKindLayout.PROFILE, profile);
        PerKindLayout.section(sections, PerKindLayout.EVIDENCES, evidences);
        PerKindLayout.section(sections, PerKindLayout.RECORDS, lines);
        String text = sections.isEmpty() ? PerKindLayout.NOTHING_REMEMBERED : String.join("\n\n", sections);
        List<ScoredMemory> included = new ArrayList<>(instructions.shown());
        included.addAll(pinned);
        included.addAll(numbered);
        return new MemoryPrompt(text, included, numbered, shown);
    }

    private Instant firstInstant(SessionGroup group) {
        return records.stream()
                .filter(line -> line.group().equals(group))
                .map(Line::at)
                .filter(Objects::nonNull)
                .min(Comparator.naturalOrder())
                .orElse(null);
    }
}
