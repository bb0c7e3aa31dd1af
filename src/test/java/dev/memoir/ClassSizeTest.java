package dev.memoir;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Keeps classes small enough to read in one sitting: a source file over {@value #LIMIT} lines is allowed only when
 * docs/architecture.md's "Large classes" section names it with the reason it stays whole.
 */
class ClassSizeTest {

    static final int LIMIT = 300;
    private static final Path SOURCES = Path.of("src/main/java");
    private static final String SECTION = "## Large classes";

    @Test
    void noClassIsOverTheLimitWithoutAReasonInTheArchitectureDocument() throws IOException {
        String reasons = largeClassesSection();
        List<String> unexplained = largeSources().stream()
                .map(file -> file.getFileName().toString().replace(".java", ""))
                .filter(name -> !reasons.contains("`" + name + "`"))
                .toList();
        assertThat(unexplained)
                .as("classes over %d lines that docs/architecture.md's \"%s\" does not explain", LIMIT, SECTION)
                .isEmpty();
    }

    @Test
    void theLimitCatchesALargeFile() throws IOException {
        Path large = Files.createTempFile("Large", ".java");
        Files.writeString(large, "\n".repeat(LIMIT + 1));
        assertThat(isLarge(large)).isTrue();
        Files.writeString(large, "\n".repeat(LIMIT));
        assertThat(isLarge(large)).isFalse();
        Files.delete(large);
    }

    private static List<Path> largeSources() throws IOException {
        try (Stream<Path> files = Files.walk(SOURCES)) {
            return files.filter(file -> file.toString().endsWith(".java"))
                    .filter(ClassSizeTest::isLarge)
                    .toList();
        }
    }

    private static boolean isLarge(Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count() > LIMIT;
        } catch (IOException e) {
            throw new IllegalStateException(file.toString(), e);
        }
    }

    private static String largeClassesSection() throws IOException {
        String text = Files.readString(Path.of("docs/architecture.md"));
        int start = text.indexOf("\n" + SECTION + "\n");
        assertThat(start)
                .as("docs/architecture.md has a \"%s\" section", SECTION)
                .isNotNegative();
        int end = text.indexOf("\n## ", start + SECTION.length() + 1);
        return text.substring(start, end < 0 ? text.length() : end);
    }
}
