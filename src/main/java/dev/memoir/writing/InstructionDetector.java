package dev.memoir.writing;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The obvious forms of a standing instruction or preference in what a user says, found without a model: a sentence
 * that tells the assistant how to answer from now on ("Always include version numbers when I ask about libraries.",
 * "Never suggest cloud services.", "From now on, answer in French.", "Please use TypeScript in every example.") or
 * states how the user likes things done ("I prefer simple, minimal dependencies.", "I'd rather not use Docker.").
 * The fallback of the model steps that judge what to keep (docs/memory-forms.md, "Standing instructions"): they
 * find the rest, and every form this misses. Descriptions that only use the words ("I've never deployed it", "it
 * always returns a list") are not instructions: the sentence must begin with the instruction, or name the user's
 * preference.
 */
final class InstructionDetector {

    /** The most characters kept of one instruction: the sentence, or its beginning. */
    static final int MAX_CHARACTERS = 400;

    /** A sentence that begins by telling the assistant what to do, always or never. */
    private static final Pattern COMMAND = Pattern.compile(
            "^(?:(?:please|and|so|also|ok(?:ay)?|going forward|from now on|in future|in the future|henceforth),?\\s+)*"
                    + "(?:always|never|don't ever|do not ever|make sure (?:to|you)|remember to|be sure to"
                    + "|(?:i want|i'd like|i would like|i need) you to(?: always| never)?|stop \\w+ing|avoid \\w+ing"
                    + "|from now on|going forward)\\b",
            Pattern.CASE_INSENSITIVE);

    /** "When I ask about X, always ...": a command after a condition on what the user asks. */
    private static final Pattern CONDITIONAL_COMMAND = Pattern.compile(
            "^(?:when|whenever|if|each time|every time)\\b[^.!?]{0,160},\\s*(?:please\\s+)?(?:always|never|don't|do not|use"
                    + "|give|answer|reply|show|include|format|write|keep|avoid)\\b",
            Pattern.CASE_INSENSITIVE);

    /** "From now on" or "going forward" anywhere in a sentence with an imperative after it. */
    private static final Pattern FROM_NOW_ON = Pattern.compile(
            "\\b(?:from now on|going forward|for all future|in all future)\\b", Pattern.CASE_INSENSITIVE);

    /** The user's stated preference. */
    private static final Pattern PREFERENCE = Pattern.compile(
            "\\b(?:i (?:really |strongly |generally |usually )?prefer|i'd prefer|i would prefer|i'd rather|i would rather"
                    + "|my (?:strong |personal )?preference (?:is|was|would be)|i (?:really )?like (?:it|things) when you"
                    + "|i (?:don't|do not) (?:want|like) you to)\\b",
            Pattern.CASE_INSENSITIVE);

    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+|\\n+");

    private InstructionDetector() {}

    /**
     * The sentences of a user's message that state a standing instruction or preference, in order, each as said
     * (its beginning if longer than {@link #MAX_CHARACTERS}); empty when there is none.
     */
    static List<String> instructions(String message) {
        List<String> found = new ArrayList<>();
        if (message == null) {
            return found;
        }
        for (String sentence : SENTENCE_END.split(message.strip())) {
            String s = sentence.strip();
            if (s.length() < 12) {
                continue;
            }
            if (isInstruction(s)) {
                found.add(s.length() <= MAX_CHARACTERS ? s : cutAtWord(s));
            }
        }
        return found;
    }

    static boolean isInstruction(String sentence) {
        String s = sentence.strip();
        if (s.endsWith("?") && !PREFERENCE.matcher(s).find()) {
            // A question asks; "Should I always use tabs?" instructs nothing.
            return false;
        }
        Matcher command = COMMAND.matcher(s);
        if (command.lookingAt() || CONDITIONAL_COMMAND.matcher(s).lookingAt()) {
            return true;
        }
        if (FROM_NOW_ON.matcher(s).find()) {
            return true;
        }
        return PREFERENCE.matcher(s).find();
    }

    private static String cutAtWord(String sentence) {
        int space = sentence.lastIndexOf(' ', MAX_CHARACTERS);
        return sentence.substring(0, space > MAX_CHARACTERS / 2 ? space : MAX_CHARACTERS) + " …";
    }
}
