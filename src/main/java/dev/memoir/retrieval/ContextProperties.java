package dev.memoir.retrieval;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import dev.memoir.retrieval.layout.LayoutLimits;

/**
 * How a reply's memory context is gathered ({@code memoir.context.*}): the search and self-reflection of the budget
 * context (sessions with the per-kind selection use their top K instead), and the standing instructions every reply
 * shows.
 *
 * @param candidates       memories one search over every kind the session reads hands to the reply, best first: the
 *                         budget then decides how many are shown (the search ranks at least
 *                         {@code memoir.search.candidates} per ranking whatever this is, so more costs little)
 * @param reflectionShown  the best of them that self-reflection is shown to judge and order
 * @param neighbours       turns before and after a retrieved utterance, in its session, shown with it where they fit
 * @param instructions     the user's standing instructions and preferences a reply considers, those nearest to the
 *                         message first: every reply shows as many as fit their share, whatever the message
 * @param instructionShare the share of a reply's memory budget kept for them; what they do not use goes to the rest
 * @param excerptTokens    the most a long memory shows in a budget context: its opening and the sentences, lines
 *                         or passage that bear on the message (0 shows memories whole)
 * @param dominantTokens   the same for the first memory when the ranking puts it far ahead of the next
 * @param neighbourTokens  the most a turn shown beside a retrieved utterance shows
 * @param overviewCandidates the candidates searched when the message asks about the order or the arc of the
 *                         dialogue ("what did we do first", "summarize our work on X"), for which many short
 *                         openings are shown
 * @param overviewTokens   the most each memory shows for such a message: its opening
 * @param overviewSpread   for such a message, how many turns apart two utterances of one session must be to be shown
 *                         before the rest, so that the excerpts cover the arc (0: the ranking's order)
 */
@Validated
@ConfigurationProperties("memoir.context")
record ContextProperties(
        @DefaultValue("80") @Min(1) @Max(500) int candidates,
        @DefaultValue("10") @Min(1) @Max(50) int reflectionShown,
        @DefaultValue("1") @Min(0) @Max(5) int neighbours,
        @DefaultValue("20") @Min(0) @Max(200) int instructions,

        @DefaultValue("0.2") @DecimalMin("0.0") @DecimalMax("0.8")
        double instructionShare,

        @DefaultValue("160") @Min(0) @Max(4000) int excerptTokens,
        @DefaultValue("600") @Min(0) @Max(4000) int dominantTokens,
        @DefaultValue("64") @Min(0) @Max(4000) int neighbourTokens,
        @DefaultValue("160") @Min(1) @Max(500) int overviewCandidates,
        @DefaultValue("72") @Min(0) @Max(4000) int overviewTokens,
        @DefaultValue("4") @Min(0) @Max(1000) int overviewSpread) {

    LayoutLimits limits() {
        return new LayoutLimits(
                instructionShare, excerptTokens, dominantTokens, neighbourTokens, overviewTokens, overviewSpread);
    }
}
