package dev.memoir.memory.quarantine;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.memoir.common.prompt.InjectionSigns;
import dev.memoir.memory.api.MemoryScreening;

/**
 * Screens a memory's text as it is written (created, restored from an archive, or given a new version) for the signs
 * of text written to instruct an assistant ({@link InjectionSigns}), and answers what the tenant's policy does with
 * it: nothing (null), flag or quarantine.
 */
@Component
public class MemoryScreen {

    /** A memory made from a turn whose own record is quarantined: held back with it, whatever its own text shows. */
    public static final String QUARANTINED_SOURCE = "quarantined-source";

    private final PoisoningPolicies policies;
    private final JdbcClient jdbc;

    MemoryScreen(PoisoningPolicies policies, JdbcClient jdbc) {
        this.policies = policies;
        this.jdbc = jdbc;
    }

    /**
     * Those of the user's turns whose history record is quarantined. One query on the partial index of the user's
     * quarantined memories, in the caller's transaction (so it sees a record written earlier in it).
     */
    public Set<UUID> quarantinedTurns(UUID tenant, String userId, Collection<UUID> turnIds) {
        if (turnIds.isEmpty()) {
            return Set.of();
        }
        return Set.copyOf(jdbc.sql("""
                        select distinct t.turn_id from memory_records m, unnest(m.turn_ids) as t(turn_id)
                        where m.tenant_id = :tenant and m.user_id = :userId and m.screening = 'quarantined'
                          and m.kind = 'history' and t.turn_id in (:turnIds)""")
                .param("tenant", tenant)
                .param("userId", userId)
                .param("turnIds", List.copyOf(turnIds))
                .query(UUID.class)
                .list());
    }

    /**
     * A memory made from turns: its own screening, or quarantined when one of its turns' records is (the lowest
     * trust of what it was made from).
     */
    public MemoryScreening screenDerived(UUID tenant, String text, boolean fromQuarantinedTurn) {
        MemoryScreening own = screen(tenant, text);
        if (!fromQuarantinedTurn || own != null && own.state().equals(MemoryScreening.QUARANTINED)) {
            return own;
        }
        List<String> signs = new ArrayList<>(own == null ? List.of() : own.signs());
        signs.add(QUARANTINED_SOURCE);
        return new MemoryScreening(MemoryScreening.QUARANTINED, signs);
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
