package dev.memoir.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.swagger.v3.oas.annotations.media.Schema;

import org.junit.jupiter.api.Test;

/** An expiresAt example a reader copies must be one the API takes: in the future (issue 45). */
class ExpiryExamplesTest {

    @Test
    void swaggersExpiryExamplesAreInTheFuture() throws NoSuchFieldException {
        for (Class<?> request : List.of(MemoryCreate.class, MemoryUpdate.class)) {
            String example = request.getDeclaredField("expiresAt")
                    .getAnnotation(Schema.class)
                    .example();
            assertThat(Instant.parse(example)).as(request.getSimpleName()).isAfter(Instant.now());
        }
    }

    @Test
    void theApiGuidesExpiryExamplesAreInTheFuture() throws IOException {
        assertThat(expiryExamplesIn(Path.of("docs/api.md"))).isPositive();
    }

    @Test
    void theHttpFilesExpiryExamplesAreInTheFuture() throws IOException {
        int found = 0;
        try (Stream<Path> files = Files.list(Path.of("http"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".http")).toList()) {
                found += expiryExamplesIn(file);
            }
        }
        assertThat(found).isPositive();
    }

    /** Asserts every expiresAt example of the file is in the future; answers how many there are. */
    private static int expiryExamplesIn(Path file) throws IOException {
        Matcher examples = Pattern.compile("\"expiresAt\":\\s*\"([^\"]+)\"").matcher(Files.readString(file));
        int found = 0;
        while (examples.find()) {
            found++;
            assertThat(Instant.parse(examples.group(1))).as(file.toString()).isAfter(Instant.now());
        }
        return found;
    }
}
