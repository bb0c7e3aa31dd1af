package dev.memoir.retrieval.layout;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import dev.memoir.common.prompt.QuotedText;
import dev.memoir.llm.TokenCounter;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.session.DialogueFormat;
import dev.memoir.session.api.TurnView;

/**
 * The per-kind layout (the papers'): recalled memories laid out for the reply prompt within the session's token
 * budget, taken in the order recalled (best first) and trimmed from the bottom: the recursive summary, then memos as
 * evidences (topic, summary and the dialogue span itself, the span shortened first and no memo taking more than half
 * the budget), then memory records. A pure function of what was recalled: retrieval has read everything it shows.
 * Its sections and the pieces it makes of memos and dates are the budget layout's too.
 */
public final class PerKindLayout {

    static final String INSTRUCTIONS = "[The user's standing instructions and preferences]";
    static final String PROFILE = "[What you know about the user and yourself]";
    static final String EVIDENCES = "[Related evidences]";
    static final String RECORDS = "[Memory]";
    static final String SECTION_HEADERS = PROFILE + ":\n\n\n" + EVIDENCES + ":\n\n\n" + RECORDS + ":\n";
    static final String NOTHING_REMEMBERED = "(nothing remembered yet)";

    /** Below this many tokens a shortened memory says too little to be worth its place. */
    static final int MIN_USEFUL_TOKENS = 16;

    private final TokenCounter tokens;

    PerKindLayout(TokenCounter tokens) {
        this.tokens = tokens;
    }

    /**
     * The memory part of the reply prompt for what was recalled, within {@code tokenBudget} tokens, of which the
     * standing instructions take at most {@code instructionShare}.
     */
    public static MemoryPrompt build(Recalled recalled, int tokenBudget, double instructionShare, TokenCounter tokens) {
        return new PerKindLayout(tokens).lay(recalled, tokenBudget, instructionShare);
    }

    private MemoryPrompt lay(Recalled recalled, int tokenBudget, double instructionShare) {
        Instructions instructions =
                Instructions.within(recalled.instructions(), (int) (tokenBudget * instructionShare), tokens);
        // Section headers and blank lines between sections are paid for up front.
        int remaining = tokenBudget - instructions.cost() - tokens.count(SECTION_HEADERS);
        List<ScoredMemory> included = new ArrayList<>();
        List<ScoredMemory> numbered = new ArrayList<>();
        List<String> shown = new ArrayList<>();
        List<String> profile = new ArrayList<>();
        List<String> evidences = new ArrayList<>();
        List<String> records = new ArrayList<>();
        for (ScoredMemory memory : recalled.memories()) {
            String entry = switch (memory.kind()) {
                case RECURSIVE_SUMMARY -> fit(QuotedText.block(memory.text()), remaining);
                case MEMO ->
                    memoEvidence(
                            memory,
                            recalled.dialogueOf(memory),
                            evidences.size() + 1,
                            Math.min(remaining, tokenBudget / 2));
                default ->
                    fit(
                            (records.size() + 1) + ". [" + memory.kind() + dated(memory) + "] "
                                    + QuotedText.of(memory.text()),
                            remaining);
            };
            if (entry == null) {
                continue;
            }
            remaining -= tokens.count(entry) + 1;
            included.add(memory);
            if (memory.kind() != MemoryKind.RECURSIVE_SUMMARY && memory.kind() != MemoryKind.MEMO) {
                numbered.add(memory);
                shown.add(entry.substring(entry.indexOf(". ") + 2));
            }
            (memory.kind() == MemoryKind.RECURSIVE_SUMMARY
                            ? profile
                            : memory.kind() == MemoryKind.MEMO ? evidences : records)
                    .add(entry);
        }
        List<String> sections = new ArrayList<>();
        section(sections, INSTRUCTIONS, instructions.lines());
        section(sections, PROFILE, profile);
        section(sections, EVIDENCES, evidences);
        section(sections, RECORDS, records);
        String text = sections.isEmpty() ? NOTHING_REMEMBERED : String.join("\n\n", sections);
        List<ScoredMemory> all = new ArrayList<>(instructions.shown());
        all.addAll(included);
        return new MemoryPrompt(text, all, numbered, shown);
    }

    String memoEvidence(ScoredMemory memo, List<TurnView> turns, int number, int budget) {
        String head = "(" + number + ") Topic: " + QuotedText.of(memo.topic()) + "\nDate: "
                + dated(memo).substring(2) + "\nSummary: " + QuotedText.of(memo.text()) + "\nDialogue: ";
        int headTokens = tokens.count(head);
        if (headTokens + MIN_USEFUL_TOKENS > budget) {
            return null;
        }
        String dialogue = DialogueFormat.INLINE.render(turns);
        return head + tokens.truncate(dialogue, budget - headTokens - 1);
    }

    /** ", 2023-05-08" or ", 2023-05-08 to 2023-05-10": when what the memory records was said (UTC days). */
    static String dated(ScoredMemory memory) {
        if (memory.occurredFrom() == null) {
            return ", date unknown";
        }
        LocalDate from = LocalDate.ofInstant(memory.occurredFrom(), ZoneOffset.UTC);
        LocalDate to = memory.occurredTo() == null ? from : LocalDate.ofInstant(memory.occurredTo(), ZoneOffset.UTC);
        return ", " + from + (to.equals(from) ? "" : " to " + to);
    }

    String fit(String entry, int budget) {
        if (tokens.count(entry) <= budget) {
            return entry;
        }
        return budget >= MIN_USEFUL_TOKENS ? tokens.truncate(entry, budget) : null;
    }

    static void section(List<String> sections, String header, List<String> entries) {
        if (!entries.isEmpty()) {
            sections.add(header + ":\n" + String.join("\n", entries));
        }
    }
}
