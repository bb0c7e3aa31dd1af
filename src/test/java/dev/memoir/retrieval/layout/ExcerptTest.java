package dev.memoir.retrieval.layout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import dev.memoir.llm.TokenCounter;

/** A long memory shown by its opening and the blocks that bear on the message, cut only between blocks. */
class ExcerptTest {

    private final TokenCounter tokens = new TokenCounter();
    private final Excerpt excerpt = new Excerpt(tokens);

    private static final String ANSWER = "Let's set up the deployment step by step. "
            + IntStream.range(0, 30)
                    .mapToObj(i -> "Filler sentence number " + i + " talks about unrelated styling choices.")
                    .collect(Collectors.joining(" "))
            + " Configure Gunicorn with three gevent workers behind the Render proxy. "
            + IntStream.range(0, 30)
                    .mapToObj(i -> "Closing remark " + i + " wishes you luck with the project.")
                    .collect(Collectors.joining(" "));

    private static Set<String> words(String text) {
        return Arrays.stream(text.split("[^\\p{L}\\p{N}_]+"))
                .filter(w -> !w.isEmpty())
                .collect(Collectors.toSet());
    }

    @Test
    void aMemoryThatFitsIsShownWhole() {
        String text = "I moved the database to PostgreSQL 16 last week.";

        assertThat(excerpt.of(text, Excerpt.contentWords("database"), null, 100))
                .isEqualTo(text);
    }

    @Test
    void aLongAnswerIsShownByItsOpeningAndTheSentenceThatBearsOnTheMessageWithinItsTokens() {
        String shown = excerpt.of(ANSWER, Excerpt.contentWords("How many gunicorn workers did we choose?"), null, 60);

        assertThat(shown)
                .startsWith("Let's set up the deployment step by step.")
                .contains("Configure Gunicorn with three gevent workers behind the Render proxy.")
                .contains(Excerpt.GAP.strip());
        assertThat(tokens.count(shown)).isLessThanOrEqualTo(60);
        // Cut between words only: every word shown is a word of the memory.
        assertThat(words(ANSWER)).containsAll(words(shown));
    }

    @Test
    void aCodeBlockIsCutBetweenItsLinesWithAMarkerNeverInsideALine() {
        List<String> lines = IntStream.range(0, 80)
                .mapToObj(i -> "    total_" + i + " = compute_budget(month=" + i + ", currency='EUR')")
                .toList();
        String text = "Here is the fix for the budget report:\n```python\n" + String.join("\n", lines) + "\n```\nDone.";

        String shown = excerpt.of(text, Excerpt.contentWords("Which currency does compute_budget use?"), null, 120);

        assertThat(shown).contains(Excerpt.CODE_CUT.strip()).contains("```python");
        assertThat(tokens.count(shown)).isLessThanOrEqualTo(120);
        List<String> codeShown =
                shown.lines().filter(line -> line.contains("total_")).toList();
        assertThat(codeShown).isNotEmpty();
        assertThat(lines)
                .as("every line of code shown is a whole line of the memory")
                .containsAll(codeShown);
    }

    @Test
    void listItemsAreKeptWhole() {
        String text = "My plan for the portfolio:\n"
                + IntStream.range(0, 40)
                        .mapToObj(i -> "- Step " + i + ": polish section " + i + " with consistent spacing and colours")
                        .collect(Collectors.joining("\n"))
                + "\n- Step 40: add the contact form with validation and a honeypot field";

        String shown = excerpt.of(text, Excerpt.contentWords("contact form validation"), null, 50);

        assertThat(shown).contains("- Step 40: add the contact form with validation and a honeypot field");
        assertThat(shown).startsWith("My plan for the portfolio:");
        assertThat(tokens.count(shown)).isLessThanOrEqualTo(50);
    }

    @Test
    void withNothingMatchedTheOpeningIsShown() {
        String shown = excerpt.of(ANSWER, Set.of("zebra"), null, 40);

        assertThat(shown).startsWith("Let's set up the deployment step by step.");
        assertThat(tokens.count(shown)).isLessThanOrEqualTo(40);
    }
}
