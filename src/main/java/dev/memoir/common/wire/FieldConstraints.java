package dev.memoir.common.wire;

/**
 * The values of the request fields' limits, in one place: the REST requests' constraint annotations and the MCP
 * tools' arguments refer to these, so that a field is accepted or refused alike whichever way it arrives. (A user
 * id's other constraints are {@link UserIdentifier}'s.)
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

    /** Characters of a user id, and of the text a search among user ids looks for. */
    public static final int USER_ID = 200;

    /** Versions of a memory a page answers at most. */
    public static final int REVISION_PAGE = 100;

    /** Sessions, users, tenants or webhook deliveries a page answers at most. */
    public static final int PAGE = 200;

    /** Failed jobs a page answers at most. */
    public static final int FAILED_JOB_PAGE = 500;

    /** Characters of a failed-jobs page cursor, longer than others: it holds a task's name and instance id. */
    public static final int FAILED_JOB_CURSOR = 2_000;

    private FieldConstraints() {}
}
