package dev.memoir.session.api;

import java.util.List;
import java.util.UUID;

import dev.memoir.memory.MemorySettings;
import dev.memoir.tenant.TenantId;

/**
 * Published inside the transaction that stores turns, so that listeners (history memory, memory jobs) commit or
 * fail together with the turns.
 *
 * @param worthRemembering user turns that a reply among these turns judged worth remembering (conditional
 *                         memory); empty for imported turns
 */
public record TurnsRecorded(
        TenantId tenant,
        String userId,
        UUID sessionId,
        MemorySettings settings,
        List<TurnView> turns,
        List<UUID> worthRemembering) {}
