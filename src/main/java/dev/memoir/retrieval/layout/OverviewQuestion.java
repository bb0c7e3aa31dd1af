package dev.memoir.retrieval.layout;

import java.util.regex.Pattern;

/**
 * Whether a message asks about the arc of the dialogue rather than one thing said in it: the order things came up in
 * ("what did we do first", "in what order did I bring up"), or an overview of work over time ("summarize our work
 * on X", "how has my plan evolved"). Its evidence is spread over many turns that each match it a little, so the
 * layout shows more and shorter excerpts, spread over the dialogue, in dialogue order ({@link BudgetedLayout}),
 * rather than the few best-matching turns at length.
 */
public final class OverviewQuestion {

    private static final Pattern ORDER = Pattern.compile(
            "\\b(?:in (?:what|which) order|the order (?:in which|of|that)|order in which|in order\\b|chronolog\\w*"
                    + "|timeline|sequence of|what did (?:we|i) (?:do|discuss|talk about|cover) (?:first|last|next)"
                    + "|(?:first|earliest|last|latest) thing (?:we|i)|walk me through (?:the|how))",
            Pattern.CASE_INSENSITIVE);

    private static final Pattern OVERVIEW = Pattern.compile(
            "\\b(?:summari[sz]e|summary|overview|recap|sum up|over time|so far|throughout our|across our|over our"
                    + "|(?:has|have) (?:\\w+ ){0,3}(?:developed|progressed|evolved|changed|grown)"
                    + "|how (?:my|our|the) [^?.!]{0,80}(?:developed|progressed|evolved|changed))",
            Pattern.CASE_INSENSITIVE);

    /** "What I brought up", "the things I mentioned": what the user's own turns say. */
    private static final Pattern USERS_SIDE = Pattern.compile(
            "\\bI (?:first |later |then |have |had |'ve )?(?:brought up|bring up|mentioned|mention|raised|asked about"
                    + "|asked you|told you|shared|said)\\b",
            Pattern.CASE_INSENSITIVE);

    private OverviewQuestion() {}

    /** Whether the message asks what the user brought up, which the user's own turns say best. */
    static boolean asksForUsersSide(String message) {
        return message != null && USERS_SIDE.matcher(message).find();
    }

    public static boolean asks(String message) {
        return message != null
                && (ORDER.matcher(message).find() || OVERVIEW.matcher(message).find());
    }
}
