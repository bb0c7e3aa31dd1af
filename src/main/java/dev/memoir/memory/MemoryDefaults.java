package dev.memoir.memory;

import org.springframework.stereotype.Component;

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
}
