package dev.memoir.session;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import dev.memoir.common.prompt.QuotedText;
import dev.memoir.session.api.TurnView;

/**
 * How turns are written into a prompt: the one renderer of dialogue for the model, with the variants the prompts
 * ask for as explicit options. Each turn is one entry, "{number}{role}: {content}", entries joined by the
 * separator; the content is quoted ({@link QuotedText}), so no turn can pose as another entry or a prompt's own
 * line.
 *
 * @param numbering whether and how entries are numbered, for prompts whose answers refer to turns by number
 * @param roles     how the speaker is named
 * @param separator what goes between entries
 */
public record DialogueFormat(Numbering numbering, RoleNames roles, String separator) {

    /** "User: ..." and "Assistant: ..." lines, as history memories write them. */
    public static final DialogueFormat LINES = new DialogueFormat(Numbering.NONE, RoleNames.LABEL, "\n");

    /** "(line 1) user: ..." lines, numbered from one, for memo writing's line ranges (MemoChat). */
    public static final DialogueFormat NUMBERED_LINES =
            new DialogueFormat(Numbering.LINES_FROM_ONE, RoleNames.WIRE, "\n");

    /** "[Turn 0] USER: ..." lines, numbered from zero, for topic extraction's turn references (RMM). */
    public static final DialogueFormat NUMBERED_TURNS =
            new DialogueFormat(Numbering.TURNS_FROM_ZERO, RoleNames.UPPER_CASE, "\n");

    /** "user: ... ### assistant: ..." on one line, for a memo's dialogue shown as evidence in the reply prompt. */
    public static final DialogueFormat INLINE = new DialogueFormat(Numbering.NONE, RoleNames.WIRE, " ### ");

    public enum Numbering {
        NONE,
        /** "(line 1) ", the first turn shown being line 1. */
        LINES_FROM_ONE,
        /** "[Turn 0] ", the first turn shown being turn 0. */
        TURNS_FROM_ZERO
    }

    public enum RoleNames {
        /** "User", "Assistant". */
        LABEL,
        /** "user", "assistant": the API's names. */
        WIRE,
        /** "USER", "ASSISTANT". */
        UPPER_CASE
    }

    /** The dialogue as one text, its turns numbered by their position in the list. */
    public String render(List<TurnView> turns) {
        return IntStream.range(0, turns.size())
                .mapToObj(i -> entry(turns.get(i), i))
                .collect(Collectors.joining(separator));
    }

    /** One turn's entry, numbered as the turn at {@code position} (from 0) of the dialogue shown. */
    public String entry(TurnView turn, int position) {
        String number = switch (numbering) {
            case NONE -> "";
            case LINES_FROM_ONE -> "(line " + (position + 1) + ") ";
            case TURNS_FROM_ZERO -> "[Turn " + position + "] ";
        };
        String role = switch (roles) {
            case LABEL -> turn.role().label();
            case WIRE -> turn.role().wireName();
            case UPPER_CASE -> turn.role().label().toUpperCase(Locale.ROOT);
        };
        String content = QuotedText.of(turn.content());
        // Where turns share a line, no turn may write the separator that starts the next one.
        if (!separator.contains("\n")) {
            content = content.replace(
                    separator.strip(), String.join(" ", separator.strip().split("")));
        }
        return number + role + ": " + content;
    }
}
