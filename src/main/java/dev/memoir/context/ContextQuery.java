package dev.memoir.context;

import java.util.UUID;

import dev.memoir.memory.MemorySettingsOverride;
import dev.memoir.memory.api.Trust;

/**
 * What a client asks the reply context for, as REST and MCP both hand it on: whose memory, for what message, and how
 * it is read. Checked by the entry point that received it.
 *
 * @param userId             the user whose memory is read
 * @param query              the message a reply would answer
 * @param sessionId          a session of the user whose memory settings apply; null for the service defaults (or
 *                           {@code memory})
 * @param excludeRecentTurns with a session: memories resting on its last this many turns are left out, since the
 *                           client's prompt sends them verbatim
 * @param tokenBudget        the most memory tokens; null for the settings' {@code promptTokenBudget}
 * @param memory             memory settings as a session takes them, without a session; null for the defaults
 * @param minTrust           the least trust of a memory shown; null for the settings' (any by default)
 */
public record ContextQuery(
        String userId,
        String query,
        UUID sessionId,
        int excludeRecentTurns,
        Integer tokenBudget,
        MemorySettingsOverride memory,
        Trust minTrust) {}
