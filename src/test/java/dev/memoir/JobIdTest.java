package dev.memoir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.memoir.jobs.TenantJobId;
import dev.memoir.tenant.TenantId;

/**
 * A job whose id carries its tenant has it written and read by {@link TenantJobId} alone: no class that queues or
 * runs jobs builds {@code "<tenant>:<id>"} or takes it apart by hand.
 */
class JobIdTest {

    private static final Pattern HAND_MADE_ID = Pattern.compile("\\+ \":\" \\+|indexOf\\(':'\\)|split\\(\":\"");

    @Test
    void aTenantsJobIdReadsBackAsWritten() {
        TenantJobId id = new TenantJobId(new TenantId(UUID.randomUUID()), UUID.randomUUID());

        assertThat(TenantJobId.parse(id.instanceId())).isEqualTo(id);
        assertThat(id.instanceId()).isEqualTo(id.tenant().value() + ":" + id.id());
    }

    @Test
    void anIdWithoutItsTenantIsRefusedByName() {
        assertThatThrownBy(() -> TenantJobId.parse(UUID.randomUUID().toString()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("<tenantId>:<id>");
    }

    @Test
    void noClassThatUsesJobsMakesOrReadsATenantsJobIdByHand() throws IOException {
        List<String> handMade = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String source = Files.readString(file);
                boolean usesJobs = source.contains("import dev.memoir.jobs.Jobs;")
                        || file.toString().contains("/dev/memoir/jobs/");
                if (usesJobs
                        && !file.endsWith("TenantJobId.java")
                        && HAND_MADE_ID.matcher(source).find()) {
                    handMade.add(file.toString());
                }
            }
        }
        assertThat(handMade).as("classes that build or parse a job id by hand").isEmpty();
    }
}
