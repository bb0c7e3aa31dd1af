package dev.memoir.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.memoir.common.Hashes;
import dev.memoir.memory.api.DedupKey;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.tenant.TenantId;

/** The stored text of every dedup key form stays as rows and archives already carry it. */
class DedupKeyTest {

    private static final TenantId TENANT = new TenantId(UUID.fromString("0b6c3f0e-6f1d-4f5e-9a4e-3f1c2b7d8e90"));
    private static final UUID ID = UUID.fromString("5a1d2c3b-4e5f-4a6b-8c7d-9e0f1a2b3c4d");

    @Test
    void everyFormIsStoredAsBefore() {
        assertThat(DedupKey.fact(TENANT, "ana", "Ana likes tea.").value())
                .isEqualTo("fact:" + Hashes.sha256(TENANT.value() + "\nana\nAna likes tea."));
        assertThat(DedupKey.recursiveSummary(TENANT, "ana").value())
                .isEqualTo("recursive_summary:0b6c3f0e-6f1d-4f5e-9a4e-3f1c2b7d8e90:ana");
        assertThat(DedupKey.history(ID).value()).isEqualTo("history:" + ID);
        assertThat(DedupKey.conditional(ID).value()).isEqualTo("conditional:" + ID);
        assertThat(DedupKey.summary(ID).value()).isEqualTo("summary:" + ID);
        assertThat(DedupKey.topic(ID).value()).isEqualTo("topic:" + ID);
        assertThat(DedupKey.reflected(ID).value()).isEqualTo("reflected:" + ID);
        assertThat(DedupKey.memo(ID + ":0:7", 2, 5).value()).isEqualTo("memo:" + ID + ":0:7:2-5");
        assertThat(DedupKey.memo(ID + ":0:7", 2, 5).value()).startsWith(DedupKey.memoSpanPrefix(ID + ":0:7"));
    }

    @Test
    void aNewOwnerGetsNewKeysForTheFormsThatNameTheOwner() {
        TenantId other = new TenantId(ID);
        DedupKey fact =
                DedupKey.parse(DedupKey.fact(TENANT, "ana", "Ana likes tea.").value());
        assertThat(fact.reowned(MemoryKind.FACT, other, "bo", "Ana likes tea."))
                .isEqualTo(DedupKey.fact(other, "bo", "Ana likes tea."));
        assertThat(DedupKey.parse("recursive_summary:x:ana").reowned(MemoryKind.RECURSIVE_SUMMARY, other, "bo", "t"))
                .isEqualTo(DedupKey.recursiveSummary(other, "bo"));
        assertThat(DedupKey.parse("topic:" + ID)
                        .reowned(MemoryKind.TOPIC, other, "bo", "t")
                        .value())
                .isEqualTo("topic:" + ID);
        assertThat(DedupKey.parse(null)).isNull();
    }
}
