package dev.memoir.retrieval.layout;

/**
 * How a reply's memory is shared out within its budget.
 *
 * @param instructionShare the share of the budget the standing instructions may take
 * @param excerptTokens    the most a long memory shows, its opening and the part that bears on the message
 *                         ({@link Excerpt}); 0 shows every memory whole
 * @param dominantTokens   the most the first memory shows when the ranking puts it far ahead of the rest
 * @param neighbourTokens  the most a turn shown beside a retrieved utterance shows
 */
public record LayoutLimits(double instructionShare, int excerptTokens, int dominantTokens, int neighbourTokens) {}
