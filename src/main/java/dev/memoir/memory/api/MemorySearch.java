package dev.memoir.memory.api;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import dev.memoir.tenant.TenantId;

/**
 * One search of one user's memory. Optional filters narrow it: the speaker of topic memories, the session a
 * memory came from, and a time window that the memory's dialogue span must overlap ({@code from} inclusive,
 * {@code to} exclusive). A null mode means the configured default. Every search reads live memories only
 * ({@link Validity#LIVE}) unless it asks for another {@link Validity}, and memories of any trust unless it asks for a
 * minimum.
 */
public record MemorySearch(
        TenantId tenant,
        String userId,
        Set<MemoryKind> kinds,
        SearchQuery query,
        int limit,
        Collection<UUID> excludedTurnIds,
        Speaker speaker,
        UUID sessionId,
        Instant from,
        Instant to,
        SearchMode mode,
        Validity validity,
        Trust minTrust) {

    public MemorySearch {
        kinds = Set.copyOf(kinds);
        excludedTurnIds = excludedTurnIds == null ? List.of() : List.copyOf(excludedTurnIds);
        validity = validity == null ? Validity.LIVE : validity;
    }

    public static MemorySearch of(TenantId tenant, String userId, Set<MemoryKind> kinds, SearchQuery query, int limit) {
        return new MemorySearch(
                tenant, userId, kinds, query, limit, List.of(), null, null, null, null, null, Validity.LIVE, null);
    }

    public MemorySearch at(Validity which) {
        return new MemorySearch(
                tenant,
                userId,
                kinds,
                query,
                limit,
                excludedTurnIds,
                speaker,
                sessionId,
                from,
                to,
                mode,
                which,
                minTrust);
    }

    public MemorySearch excludingTurns(Collection<UUID> turnIds) {
        return new MemorySearch(
                tenant, userId, kinds, query, limit, turnIds, speaker, sessionId, from, to, mode, validity, minTrust);
    }

    public MemorySearch ofSpeaker(Speaker only) {
        return new MemorySearch(
                tenant,
                userId,
                kinds,
                query,
                limit,
                excludedTurnIds,
                only,
                sessionId,
                from,
                to,
                mode,
                validity,
                minTrust);
    }

    public MemorySearch within(UUID session, DialogueWindow window) {
        return new MemorySearch(
                tenant,
                userId,
                kinds,
                query,
                limit,
                excludedTurnIds,
                speaker,
                session,
                window.from(),
                window.to(),
                mode,
                validity,
                minTrust);
    }

    public MemorySearch using(SearchMode searchMode) {
        return new MemorySearch(
                tenant,
                userId,
                kinds,
                query,
                limit,
                excludedTurnIds,
                speaker,
                sessionId,
                from,
                to,
                searchMode,
                validity,
                minTrust);
    }

    /** Only memories trusted at least so much (docs/trust.md); null for any. */
    public MemorySearch trustedAtLeast(Trust minimum) {
        return new MemorySearch(
                tenant,
                userId,
                kinds,
                query,
                limit,
                excludedTurnIds,
                speaker,
                sessionId,
                from,
                to,
                mode,
                validity,
                minimum);
    }
}
