package dev.memoir;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.memoir.common.wire.FieldConstraints;

/**
 * Every limit a request is held to, and every page size it gets when it asks for none, is a named constant of
 * {@code common.wire.FieldConstraints}, so that REST, MCP and the documents read one value. A number written
 * straight into a request's constraint is refused here; 0 and 1 (the least of a count or page) and fractions are
 * not limits. Settings records ({@code @ConfigurationProperties}) bound an operator's configuration, not a request,
 * and keep their ranges beside their defaults.
 */
class RequestLimitsTest {

    private static final Path SOURCES = Path.of("src/main/java");

    /** A constraint or default whose value is a number literal other than 0, 1 or a fraction. */
    private static final Pattern LITERAL_LIMIT = Pattern.compile("@(Max|Min)\\((value = )?(?![01]\\))[0-9][0-9_]*L?\\)"
            + "|@Size\\([^)]*(min|max) = (?![01][,)])[0-9]"
            + "|@Decimal(Max|Min)\\((value = )?\"(?!0(\\.[0-9]+)?\"|1\")[0-9]"
            + "|defaultValue = \"[0-9]");

    @Test
    void noRequestConstraintWritesItsLimitAsANumber() throws IOException {
        List<String> literal = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String source = Files.readString(file);
                if (!source.contains("@ConfigurationProperties")) {
                    literal.addAll(literalLimits(file.toString(), source));
                }
            }
        }
        assertThat(literal)
                .as("request limits written as numbers instead of FieldConstraints' constants")
                .isEmpty();
    }

    @Test
    void theScanCatchesTheLimitsItIsThereFor() {
        assertThat(literalLimits("A", "@Max(10_000) int limit")).hasSize(1);
        assertThat(literalLimits("A", "@RequestParam(defaultValue = \"50\")")).hasSize(1);
        assertThat(literalLimits("A", "@Size(max = 1000) List<Integer> numbers"))
                .hasSize(1);
        assertThat(literalLimits("A", "@Size(min = 1, max = 200) String id")).hasSize(1);
        assertThat(literalLimits("A", "@DecimalMax(\"1000000000000\") BigDecimal cost"))
                .hasSize(1);
        assertThat(literalLimits("A", "@Max(1_000_000_000_000_000L) Long tokens"))
                .hasSize(1);
        assertThat(literalLimits("A", "@Min(1) @Max(FieldConstraints.PAGE) int limit"))
                .isEmpty();
        assertThat(literalLimits("A", "@Min(0) @Size(min = 1, max = FieldConstraints.USER_ID)"))
                .isEmpty();
        assertThat(literalLimits("A", "@DecimalMin(\"0.01\") @DecimalMax(\"1\") Double warnAt"))
                .isEmpty();
        assertThat(literalLimits("A", "@RequestParam(defaultValue = \"day\")")).isEmpty();
    }

    @Test
    void apiMdStatesTheLimitsFieldConstraintsHold() throws IOException {
        String api = Files.readString(Path.of("docs/api.md")).replaceAll("\\s+", " ");
        String limits = api.substring(api.indexOf("**The limits a request is refused beyond**"));
        limits = limits.substring(0, limits.indexOf(". If the model fails"));

        assertThat(limits)
                .contains("a user id " + spelled(FieldConstraints.USER_ID) + " characters")
                .contains("a search `query` " + spelled(FieldConstraints.SEARCH_QUERY))
                .contains("a chat message " + spelled(FieldConstraints.CHAT_MESSAGE))
                .contains("a memory's text " + spelled(FieldConstraints.MEMORY_TEXT))
                .contains("a tenant's name " + spelled(FieldConstraints.TENANT_NAME))
                .contains("a webhook URL " + spelled(FieldConstraints.WEBHOOK_URL))
                .contains("feedback's hint or answer " + spelled(FieldConstraints.FEEDBACK_TEXT))
                .contains("conversation id " + spelled(FieldConstraints.CONVERSATION_ID))
                .contains("a speaker's name " + spelled(FieldConstraints.SPEAKER))
                .contains("a page `cursor` " + spelled(FieldConstraints.CURSOR))
                .contains("(the failed jobs' " + spelled(FieldConstraints.FAILED_JOB_CURSOR) + ")")
                .contains("`/v1/chat/completions` " + spelled(FieldConstraints.CHAT_COMPLETION_MESSAGES) + " messages")
                .contains("`POST /sessions/{id}/turns` " + spelled(FieldConstraints.IMPORTED_TURNS) + " turns")
                .contains("superseding at most " + spelled(FieldConstraints.SUPERSEDED_MEMORIES) + " others")
                .contains("memories 1 to " + FieldConstraints.MEMORY_PAGE + ", default "
                        + FieldConstraints.MEMORY_PAGE_DEFAULT)
                .contains("up to " + FieldConstraints.PAGE);
    }

    /** A number as the documents write it: 4,000. */
    private static String spelled(int number) {
        return String.format(Locale.ROOT, "%,d", number);
    }

    private static List<String> literalLimits(String file, String source) {
        List<String> found = new ArrayList<>();
        Matcher limit = LITERAL_LIMIT.matcher(source);
        while (limit.find()) {
            found.add(file + ": " + limit.group());
        }
        return found;
    }
}
