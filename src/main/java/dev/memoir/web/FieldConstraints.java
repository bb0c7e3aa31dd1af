package dev.memoir.web;

/**
 * The values of the request fields' constraints that more than one door shares: the REST requests' constraint
 * annotations and the MCP tools' arguments refer to these, so that a field is accepted or refused alike whichever
 * way it arrives. (A user id's constraints are {@link UserIdentifier}'s.)
 */
public final class FieldConstraints {

    /** Characters of a memory's text. */
    public static final int MEMORY_TEXT = 20_000;

    /** Characters of a memory search query. */
    public static final int SEARCH_QUERY = 4_000;

    /** Characters of a chat message. */
    public static final int CHAT_MESSAGE = 32_000;

    /** Memories one memory may supersede. */
    public static final int SUPERSEDED_MEMORIES = 100;

    /** Memories a page or a search answers at most. */
    public static final int MEMORY_PAGE = 100;

    /** Characters of a page cursor. */
    public static final int CURSOR = 1_000;

    private FieldConstraints() {
    }
}
