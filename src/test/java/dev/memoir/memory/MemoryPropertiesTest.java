package dev.memoir.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.Trust;

/** The memory defaults bind from any subset of settings, none included. */
class MemoryPropertiesTest {

    private static MemoryProperties bind(Map<String, String> settings) {
        return new Binder(new MapConfigurationPropertySource(settings))
                .bindOrCreate("memoir.memory", MemoryProperties.class);
    }

    @Test
    void withNoSettingsEveryKindHasItsDefaultTopK() {
        MemoryProperties properties = bind(Map.of());

        assertThat(properties.topK()).isEqualTo(MemoryProperties.DEFAULT_TOP_K);
        assertThat(properties.asSettings().topK()).containsEntry(MemoryKind.MEMO, 5);
        assertThat(properties.strategy()).isEqualTo(MemoryStrategy.MULTI_VIEW);
    }

    @Test
    void settingOneKindKeepsTheOthersDefaults() {
        MemoryProperties properties = bind(Map.of("memoir.memory.top-k.memo", "8"));

        assertThat(properties.topK())
                .containsEntry(MemoryKind.MEMO, 8)
                .containsEntry(MemoryKind.HISTORY, 3)
                .containsEntry(MemoryKind.SUMMARY, 1)
                .hasSize(MemoryProperties.DEFAULT_TOP_K.size());
    }

    @Test
    void aDeploymentsMinimumTrustIsEverySessionsDefaultAndNoneReadsAny() {
        assertThat(bind(Map.of()).asSettings().minTrust()).isNull();
        MemorySettings strict = bind(Map.of("memoir.memory.min-trust", "high")).asSettings();
        assertThat(strict.minTrust()).isEqualTo(Trust.HIGH);
        assertThat(strict.overriddenBy(null).minTrust()).isEqualTo(Trust.HIGH);
        assertThat(strict.trustingAtLeast(Trust.LOW).minTrust())
                .as("a request never lowers it")
                .isEqualTo(Trust.HIGH);
        assertThat(bind(Map.of()).asSettings().trustingAtLeast(Trust.MEDIUM).minTrust())
                .isEqualTo(Trust.MEDIUM);
    }
}
