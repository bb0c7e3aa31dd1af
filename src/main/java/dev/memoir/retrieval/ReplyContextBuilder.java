package dev.memoir.retrieval;

import java.util.Collection;
import java.util.UUID;

import dev.memoir.memory.ContextSelection;
import dev.memoir.session.api.SessionRef;

/**
 * One way to build the memory a reply request carries, for the sessions whose {@link ContextSelection} it serves:
 * its recall and its layout together. {@link ReplyMemory} chooses among them, once.
 */
interface ReplyContextBuilder {

    ContextSelection selection();

    /**
     * The memory for a reply to {@code message} in the session, within {@code tokenBudget} tokens, leaving out what
     * rests on the turns the prompt sends verbatim.
     */
    ReplyContext build(SessionRef session, String message, Collection<UUID> turnsInPrompt, int tokenBudget);
}
