package dev.memoir.retrieval;

import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.stereotype.Service;

import dev.memoir.memory.ContextSelection;
import dev.memoir.session.api.SessionRef;

/**
 * The memory a reply request carries, laid out within its token budget, with what it can cite: the one seam between
 * what Memoir remembers and a reply (a chat's, and whatever else puts Memoir's memory before a model). The session's
 * {@link ContextSelection} chooses how it is built, here and nowhere else: filled to the budget from one ranking
 * ({@code budget}, the default), or the papers' top K of each kind ({@code per-kind}).
 */
@Service
public class ReplyMemory {

    private final Map<ContextSelection, ReplyContextBuilder> builders = new EnumMap<>(ContextSelection.class);

    ReplyMemory(List<ReplyContextBuilder> builders) {
        builders.forEach(builder -> this.builders.put(builder.selection(), builder));
        for (ContextSelection selection : ContextSelection.values()) {
            if (!this.builders.containsKey(selection)) {
                throw new IllegalStateException("No reply context is built for the selection " + selection);
            }
        }
    }

    /**
     * The memory for a reply to {@code message} in the session, within {@code tokenBudget} tokens; memories that rest
     * on {@code turnsInPrompt} (the recent dialogue the prompt sends verbatim) are left out.
     */
    public ReplyContext contextFor(
            SessionRef session, String message, Collection<UUID> turnsInPrompt, int tokenBudget) {
        return builders.get(session.settings().contextSelection()).build(session, message, turnsInPrompt, tokenBudget);
    }
}
