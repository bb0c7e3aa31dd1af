package dev.memoir.retrieval;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.springframework.stereotype.Component;

import dev.memoir.memory.MemoryQuarantine;
import dev.memoir.memory.MemorySearches;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.memory.api.SearchQuery;
import dev.memoir.session.TurnReader;
import dev.memoir.session.api.SessionRef;
import dev.memoir.session.api.TurnView;
import dev.memoir.tenant.TenantId;

/**
 * What a reply shows before its ranked records, whichever way they are chosen: the user's standing instructions and
 * preferences, the user's recursive summary and the memos the model chose (MemoChat), with the dialogue each memo
 * rests on.
 */
@Component
class PinnedMemories {

    /**
     * The pinned memories in the order the prompt gives them, each memo's dialogue by memo id, and the user's standing
     * instructions, those nearest to the message first.
     */
    record Pinned(List<ScoredMemory> memories, Map<UUID, List<TurnView>> dialogues, List<ScoredMemory> instructions) {

        static final Pinned NONE = new Pinned(List.of(), Map.of(), List.of());
    }

    private final MemorySearches searches;
    private final MemoRetriever memos;
    private final TurnReader turnReader;
    private final ContextProperties properties;
    private final MemoryQuarantine quarantine;

    PinnedMemories(
            MemorySearches searches,
            MemoRetriever memos,
            TurnReader turnReader,
            ContextProperties properties,
            MemoryQuarantine quarantine) {
        this.quarantine = quarantine;
        this.searches = searches;
        this.memos = memos;
        this.turnReader = turnReader;
        this.properties = properties;
    }

    /** Whether the session reads any pinned kind, and so needs the message's query for them. */
    boolean any(SessionRef session) {
        return readsRecursive(session) || readsMemos(session) || readsInstructions(session);
    }

    /** What the session pins for a reply to {@code message}; instructions said in the prompt's turns are left out. */
    Pinned recall(SessionRef session, String message, SearchQuery query, Collection<UUID> turnsInPrompt) {
        List<ScoredMemory> pinned = new ArrayList<>();
        Map<UUID, List<TurnView>> dialogues = Map.of();
        if (readsRecursive(session)) {
            // One per user: the nearest is the one.
            pinned.addAll(searches.nearest(
                    session.tenant(),
                    session.userId(),
                    Set.of(MemoryKind.RECURSIVE_SUMMARY),
                    query,
                    1,
                    List.of(),
                    session.settings().minTrust()));
        }
        if (readsMemos(session)) {
            List<ScoredMemory> chosen = memos.retrieve(session, message, query);
            pinned.addAll(chosen);
            dialogues = dialogues(session.tenant(), session.userId(), chosen);
        }
        List<ScoredMemory> instructions = readsInstructions(session)
                ? searches.nearest(
                        session.tenant(),
                        session.userId(),
                        Set.of(MemoryKind.INSTRUCTION),
                        query,
                        properties.instructions(),
                        turnsInPrompt,
                        session.settings().minTrust())
                : List.of();
        return new Pinned(pinned, dialogues, instructions);
    }

    private boolean readsInstructions(SessionRef session) {
        return session.settings().reads(MemoryKind.INSTRUCTION) && properties.instructions() > 0;
    }

    private static boolean readsRecursive(SessionRef session) {
        return session.settings().reads(MemoryKind.RECURSIVE_SUMMARY);
    }

    private static boolean readsMemos(SessionRef session) {
        return session.settings().reads(MemoryKind.MEMO) && session.settings().topK(MemoryKind.MEMO) > 0;
    }

    /** The chosen memos' dialogues, read in one query. */
    private Map<UUID, List<TurnView>> dialogues(TenantId tenant, String userId, List<ScoredMemory> memos) {
        List<UUID> turnIds = memos.stream()
                .flatMap(memo -> memo.provenance().turnIds().stream())
                .distinct()
                .toList();
        if (turnIds.isEmpty()) {
            return Map.of();
        }
        // A turn whose own record is quarantined is not shown as a memo's evidence either.
        Set<UUID> heldBack = quarantine.heldBackTurns(tenant, userId, turnIds);
        Map<UUID, TurnView> turns = turnReader.turnsByIds(tenant, turnIds).stream()
                .filter(turn -> !heldBack.contains(turn.id()))
                .collect(Collectors.toMap(TurnView::id, Function.identity()));
        return memos.stream()
                .collect(Collectors.toMap(
                        ScoredMemory::id,
                        memo -> memo.provenance().turnIds().stream()
                                .map(turns::get)
                                .filter(Objects::nonNull)
                                .toList(),
                        (a, b) -> a));
    }
}
