package dev.memoir.memory.quarantine;

import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Component;

import dev.memoir.common.prompt.InjectionSigns;
import dev.memoir.memory.MemoryScreening;

/**
 * Screens a memory's text as it is written (created, restored from an archive, or given a new version) for the signs
 * of text written to instruct an assistant ({@link InjectionSigns}), and answers what the tenant's policy does with
 * it: nothing (null), flag or quarantine.
 */
@Component
public class MemoryScreen {

    private final PoisoningPolicies policies;

    MemoryScreen(PoisoningPolicies policies) {
        this.policies = policies;
    }

    /** The screening to store with the text; null when the text shows no sign or the tenant allows it. */
    public MemoryScreening screen(UUID tenant, String text) {
        List<String> signs = InjectionSigns.of(text);
        if (signs.isEmpty()) {
            return null;
        }
        return switch (policies.of(tenant)) {
            case ALLOW -> null;
            case FLAG -> new MemoryScreening(MemoryScreening.FLAGGED, signs);
            case QUARANTINE -> new MemoryScreening(MemoryScreening.QUARANTINED, signs);
        };
    }
}
