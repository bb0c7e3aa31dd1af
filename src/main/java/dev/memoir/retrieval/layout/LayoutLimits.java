package dev.memoir.retrieval.layout;

/**
 * How a reply's memory is shared out within its budget.
 *
 * @param instructionShare the share of the budget the standing instructions may take
 * @param excerptTokens    the most a long memory shows, its opening and the part that bears on the message
 *                         ({@link Excerpt}); 0 shows every memory whole
 * @param dominantTokens   the most the first memory shows when the ranking puts it far ahead of the rest
 * @param neighbourTokens  the most a turn shown beside a retrieved utterance shows
 * @param overviewTokens   the most each memory shows when the message asks about the arc of the dialogue
 *                         ({@link OverviewQuestion})
 * @param overviewSpread   how many turns apart two utterances of one session must be, for such a message, to be shown
 *                         before the rest ({@link DialogueSpread}; 0: the ranking's order)
 */
public record LayoutLimits(
        double instructionShare,
        int excerptTokens,
        int dominantTokens,
        int neighbourTokens,
        int overviewTokens,
        int overviewSpread) {}
