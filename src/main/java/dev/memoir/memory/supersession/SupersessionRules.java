package dev.memoir.memory.supersession;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Component;

import dev.memoir.common.web.InvalidRequestException;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.store.MemoryRecord;
import dev.memoir.memory.store.MemoryRecordRepository;

/**
 * The rules a client's choice of what a memory supersedes obeys, and its application: only the user's own
 * fact-bearing memories, live or already superseded by that memory, and only by a live one, so that a chain of
 * supersessions can never loop. A choice that breaks one is refused, 400 naming supersedes.
 */
@Component
public class SupersessionRules {

    private final MemoryRecordRepository records;
    private final Supersessions supersessions;

    SupersessionRules(MemoryRecordRepository records, Supersessions supersessions) {
        this.records = records;
        this.supersessions = supersessions;
    }

    /**
     * Locks every row a change of {@code id}'s supersessions touches, in id order, before the memory itself: two
     * changes naming each other cannot deadlock.
     */
    public void lockForChange(UUID tenantId, UUID id, Collection<UUID> supersedes) {
        Set<UUID> rows = new HashSet<>(supersedes);
        rows.add(id);
        supersessions.lock(tenantId, rows);
    }

    /**
     * Makes {@code by} supersede exactly {@code ids}: the memories it superseded before and are not listed become
     * live again.
     */
    public void replace(MemoryRecord by, List<UUID> ids) {
        Set<UUID> wanted = new LinkedHashSet<>(ids);
        if (!wanted.isEmpty() && !by.getKind().factBearing()) {
            throw new InvalidRequestException(
                    "supersedes",
                    "only " + MemoryKind.FACT_BEARING + " memories supersede " + "others; this one is a " + by.getKind()
                            + " memory");
        }
        if (wanted.contains(by.getId())) {
            throw new InvalidRequestException("supersedes", "a memory cannot supersede itself: " + by.getId());
        }
        records.flush();
        Map<UUID, Supersessions.Row> found = new HashMap<>();
        Set<UUID> locked = new HashSet<>(wanted);
        locked.add(by.getId());
        // Read as locked now, not as this transaction first loaded it: another change may have superseded it since.
        supersessions.lock(by.getTenantId(), locked).forEach(row -> found.put(row.id(), row));
        UUID bySuperseder =
                found.containsKey(by.getId()) ? found.get(by.getId()).supersededBy() : null;
        if (!wanted.isEmpty() && bySuperseder != null) {
            throw new InvalidRequestException(
                    "supersedes",
                    "memory " + by.getId() + " is itself superseded by " + bySuperseder
                            + ": only a live memory supersedes others");
        }
        for (UUID id : wanted) {
            check(by, id, found.get(id));
        }
        supersessions.reinstate(by.getTenantId(), by.getUserId(), by.getId());
        supersessions.supersede(by.getTenantId(), by.getUserId(), by.getId(), wanted);
    }

    private static void check(MemoryRecord by, UUID id, Supersessions.Row row) {
        if (row == null || !row.userId().equals(by.getUserId())) {
            throw new InvalidRequestException(
                    "supersedes", "memory " + id + " is not one of user " + by.getUserId() + "'s memories");
        }
        if (!row.kind().factBearing()) {
            throw new InvalidRequestException(
                    "supersedes",
                    "memory " + id + " is a " + row.kind() + " memory; only " + MemoryKind.FACT_BEARING
                            + " memories can be superseded");
        }
        if (row.supersededBy() != null && !row.supersededBy().equals(by.getId())) {
            throw new InvalidRequestException(
                    "supersedes", "memory " + id + " is already superseded by " + row.supersededBy());
        }
    }
}
