package dev.memoir.session.api;

import java.util.List;
import java.util.UUID;

/** A session locked for deletion: whose it is, and its turns' ids, for erasing what was learned from it. */
public record SessionForDeletion(String userId, List<UUID> turnIds) {}
