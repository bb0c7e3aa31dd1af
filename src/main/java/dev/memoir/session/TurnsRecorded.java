package dev.memoir.session;

import java.util.List;
import java.util.UUID;

import dev.memoir.memory.MemorySettings;
import dev.memoir.tenant.TenantId;

/**
 * Published inside the transaction that stores turns, so that listeners (history memory) commit or fail
 * together with the turns.
 */
public record TurnsRecorded(TenantId tenant, String userId, UUID sessionId, MemorySettings settings,
        List<TurnView> turns) {
}
