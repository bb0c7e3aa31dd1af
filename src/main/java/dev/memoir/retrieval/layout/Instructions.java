package dev.memoir.retrieval.layout;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import dev.memoir.common.prompt.QuotedText;
import dev.memoir.llm.TokenCounter;
import dev.memoir.memory.api.ScoredMemory;

/**
 * The user's standing instructions and preferences as a reply shows them, first and whatever the message: one line
 * each, dated, those nearest to the message first, as many as fit their share of the memory budget (a long one
 * shortened rather than left out, if it is the first). What they do not use goes to the rest of the memory.
 *
 * @param lines the section's lines
 * @param shown the instructions shown
 * @param cost  what the section costs, its header included; 0 when it is empty
 */
record Instructions(List<String> lines, List<ScoredMemory> shown, int cost) {

    static Instructions within(List<ScoredMemory> instructions, int budget, TokenCounter tokens) {
        if (instructions.isEmpty() || budget <= 0) {
            return new Instructions(List.of(), List.of(), 0);
        }
        int remaining = budget - tokens.count(PerKindLayout.INSTRUCTIONS + ":\n\n\n");
        List<String> lines = new ArrayList<>();
        List<ScoredMemory> shown = new ArrayList<>();
        for (ScoredMemory instruction : instructions) {
            String line = "- " + QuotedText.of(instruction.text()) + dated(instruction);
            int cost = tokens.count(line) + 1;
            if (cost > remaining) {
                if (!lines.isEmpty() || remaining < PerKindLayout.MIN_USEFUL_TOKENS) {
                    continue;
                }
                line = tokens.truncate(line, remaining - 1);
                cost = tokens.count(line) + 1;
            }
            remaining -= cost;
            lines.add(line);
            shown.add(instruction);
        }
        if (lines.isEmpty()) {
            return new Instructions(List.of(), List.of(), 0);
        }
        return new Instructions(List.copyOf(lines), List.copyOf(shown), budget - remaining);
    }

    /** " (said 2024-03-15)": when the user gave it, so that a later one can be told to replace it. */
    private static String dated(ScoredMemory instruction) {
        return instruction.occurredFrom() == null
                ? ""
                : " (said " + LocalDate.ofInstant(instruction.occurredFrom(), ZoneOffset.UTC) + ")";
    }
}
