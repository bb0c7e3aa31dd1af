package dev.memoir.writing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The obvious forms of a standing instruction or preference, and the sentences that only use its words. */
class InstructionDetectorTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "Always answer with TypeScript examples.",
                "Never suggest cloud services.",
                "Please always give me the metric units.",
                "From now on, reply in French.",
                "Going forward, keep your answers under five sentences.",
                "Don't ever use emojis in your replies.",
                "Make sure to cite the version of every library you mention.",
                "I want you to always show the command before its output.",
                "Avoid using jargon when you explain things to me.",
                "I prefer tabs over spaces in every code sample.",
                "I'd rather you didn't recommend paid tools.",
                "My preference is short bullet points.",
                "I'm building a small app, so I prefer minimal dependencies, can you suggest a router?",
                "When I ask about dates, always use the ISO format."
            })
    void aStandingInstructionOrPreferenceIsFound(String sentence) {
        assertThat(InstructionDetector.instructions(sentence)).containsExactly(sentence);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "I've never deployed this app anywhere.",
                "How do I make sure the query always returns a list?",
                "The function always returns null when the cache is cold.",
                "I want to make sure my tests pass before the release.",
                "Should I always commit the lock file?",
                "We never managed to reproduce the bug on Linux.",
                "Thanks, that helped a lot!"
            })
    void aSentenceThatOnlyUsesTheWordsIsNoInstruction(String sentence) {
        assertThat(InstructionDetector.instructions(sentence)).isEmpty();
    }

    @org.junit.jupiter.api.Test
    void onlyTheSentencesThatInstructAreKeptFromALongerMessage() {
        assertThat(InstructionDetector.instructions(
                        "I moved the API to FastAPI last week. Always include type hints in Python examples. "
                                + "What should I test first?"))
                .containsExactly("Always include type hints in Python examples.");
    }
}
