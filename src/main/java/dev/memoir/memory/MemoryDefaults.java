package dev.memoir.memory;

import java.util.EnumMap;
import java.util.Map;

import org.springframework.stereotype.Component;

import dev.memoir.memory.api.MemoryKind;

/** Resolves a session's memory strategy: the configured defaults with the session's overrides on top. */
@Component
public class MemoryDefaults {

    private final MemorySettings defaults;

    MemoryDefaults(MemoryProperties properties) {
        this.defaults = properties.asSettings();
    }

    public MemorySettings resolve(MemorySettingsOverride override) {
        return defaults.overriddenBy(override);
    }

    /**
     * Settings stored with a session, completed with the configured top-K of every kind they do not name, and with
     * the configured context selection when stored before sessions had one: a kind
     * added after the session was stored reads its default, not none, without a migration for its stored sessions.
     */
    public MemorySettings completed(MemorySettings stored) {
        if (stored.topK().keySet().containsAll(defaults.topK().keySet()) && stored.contextSelection() != null) {
            return stored;
        }
        Map<MemoryKind, Integer> topK = new EnumMap<>(defaults.topK());
        topK.putAll(stored.topK());
        return new MemorySettings(
                stored.strategy(),
                stored.write(),
                stored.read(),
                Map.copyOf(topK),
                stored.reflectionRounds(),
                stored.promptTokenBudget(),
                stored.rerank(),
                stored.reasoning(),
                stored.contextSelection() != null ? stored.contextSelection() : defaults.contextSelection(),
                stored.minTrust());
    }
}
