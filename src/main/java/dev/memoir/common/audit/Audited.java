package dev.memoir.common.audit;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Something the audit trail records, published as an application event in the transaction of the change (or, for
 * what changes nothing, such as an export or a context request, after it). The audit module writes it in the
 * publisher's transaction, so an entry exists exactly when the change committed.
 *
 * <p>Never memory text: {@code subjects} are ids, {@code details} counts, kinds and other ids. The user id is kept
 * only as a keyed hash, so that the entry outlives the user's erasure.
 *
 * @param id the entry's id, chosen by the publisher so that it can hand it out (an erasure's receipt)
 * @param tenant whose trail it goes in
 * @param action what was done, as {@code memory.created} or {@code user.erased}
 * @param userId the user it was done for, or null
 * @param subjects the ids of what was touched or shown
 * @param details anything else a reviewer needs that is not personal content (counts, kinds, reasons, other ids)
 */
public record Audited(
        UUID id, UUID tenant, String action, String userId, List<UUID> subjects, Map<String, Object> details) {

    public Audited {
        subjects = List.copyOf(subjects);
        details = Map.copyOf(details);
    }

    public static Audited of(
            UUID tenant, String action, String userId, List<UUID> subjects, Map<String, Object> details) {
        return new Audited(UUID.randomUUID(), tenant, action, userId, subjects, details);
    }
}
