package dev.memoir.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

class AuditHashesTest {

    private final UUID tenant = UUID.fromString("00000000-0000-0000-0000-000000000001");
    private final UUID id = UUID.fromString("00000000-0000-0000-0000-000000000002");
    private final Instant at = Instant.parse("2026-12-07T10:15:30.123456789Z");

    private byte[] content(String actor, String details, List<UUID> subjects) {
        return AuditHashes.content(tenant, id, at, actor, "memory.created", "ab12", subjects, details);
    }

    @Test
    void theContentHashReadsTheTimeAsTheDatabaseKeepsIt() {
        assertThat(AuditHashes.content(tenant, id, at, "operator", "a", null, List.of(), "{}"))
                .isEqualTo(AuditHashes.content(
                        tenant, id, AuditHashes.stored(at), "operator", "a", null, List.of(), "{}"));
    }

    @Test
    void everyFieldChangesTheContentHash() {
        byte[] base = content("key:1", "{\"kind\":\"fact\"}", List.of(id));
        assertThat(content("key:2", "{\"kind\":\"fact\"}", List.of(id))).isNotEqualTo(base);
        assertThat(content("key:1", "{\"kind\":\"note\"}", List.of(id))).isNotEqualTo(base);
        assertThat(content("key:1", "{\"kind\":\"fact\"}", List.of())).isNotEqualTo(base);
        assertThat(AuditHashes.content(
                        tenant, id, at, "key:1", "memory.created", null, List.of(id), "{\"kind\":\"fact\"}"))
                .isNotEqualTo(base);
        // A value cannot move from one field into the next unseen: each field is hashed after its length.
        assertThat(AuditHashes.content(tenant, id, at, "key:1\nmemory.created", "", "ab12", List.of(), "{}"))
                .isNotEqualTo(
                        AuditHashes.content(tenant, id, at, "key:1", "memory.created\n", "ab12", List.of(), "{}"));
    }

    @Test
    void theLinkDependsOnThePreviousHashTheSeqAndTheContent() {
        byte[] content = content("operator", "{}", List.of());
        byte[] first = AuditHashes.link(null, 1, content);
        assertThat(first).hasSize(32);
        assertThat(AuditHashes.link(null, 2, content)).isNotEqualTo(first);
        assertThat(AuditHashes.link(first, 1, content)).isNotEqualTo(first);
        assertThat(AuditHashes.link(null, 1, content("memoir", "{}", List.of())))
                .isNotEqualTo(first);
    }
}
