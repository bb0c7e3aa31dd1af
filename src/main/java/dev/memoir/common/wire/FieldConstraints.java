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

    /** Memories a page or a search answers when the request names no limit: the REST API's and the MCP tools'. */
    public static final int MEMORY_PAGE_DEFAULT = 20;

    /** Characters of a page cursor. */
    public static final int CURSOR = 1_000;

    /** Characters of a user id, and of the text a search among user ids looks for. */
    public static final int USER_ID = 200;

    /** Versions of a memory a page answers at most. */
    public static final int REVISION_PAGE = 100;

    /** Sessions, users, tenants or webhook deliveries a page answers at most. */
    public static final int PAGE = 200;

    /** Rows per page of a listing that grows (users, deliveries, audit entries, budgets) when none is asked for. */
    public static final int PAGE_DEFAULT = 50;

    /** Failed jobs a page answers at most. */
    public static final int FAILED_JOB_PAGE = 500;

    /** Failed jobs per page when none is asked for. */
    public static final int FAILED_JOB_PAGE_DEFAULT = 100;

    /** Characters of a failed-jobs page cursor, longer than others: it holds a task's name and instance id. */
    public static final int FAILED_JOB_CURSOR = 2_000;

    /** Characters of a webhook endpoint's URL. */
    public static final int WEBHOOK_URL = 2_000;

    /** Characters of a tenant's display name. */
    public static final int TENANT_NAME = 200;

    /** Characters of a feedback's hint or right answer. */
    public static final int FEEDBACK_TEXT = 4_000;

    /** Reranked replies the reranker's history covers at most. */
    public static final int RERANKED_REPLIES = 5_000;

    /** Messages of one OpenAI-compatible chat-completions request. */
    public static final int CHAT_COMPLETION_MESSAGES = 1_000;

    /** Turns one import request carries. */
    public static final int IMPORTED_TURNS = 1_000;

    /** Tool calls one conversation message carries. */
    public static final int TOOL_CALLS = 100;

    /** Characters of a tool call's id, type or tool name. */
    public static final int TOOL_FIELD = 200;

    /** Characters of a client's conversation id. */
    public static final int CONVERSATION_ID = 200;

    /** Messages of a conversation read back at once. */
    public static final int CONVERSATION_MESSAGES = 1_000;

    /** Characters of an audit action asked for ({@code memory.created}). */
    public static final int AUDIT_ACTION = 100;

    /** Characters of a turn's speaker name. */
    public static final int SPEAKER = 100;

    /** Memories of one kind a session's settings may retrieve per turn. */
    public static final int TOP_K = 20;

    /** Self-reflection rounds a session's settings may ask for. */
    public static final int REFLECTION_ROUNDS = 5;

    /** The least and the most tokens of memory a session's settings may give a reply prompt. */
    public static final int PROMPT_TOKEN_BUDGET_MIN = 100;

    public static final int PROMPT_TOKEN_BUDGET_MAX = 100_000;

    /** The largest archive the MCP export tool answers with; a larger one is exported by the REST endpoint. */
    public static final int MCP_ARCHIVE_BYTES = 8 << 20;

    /** Reranked replies the reranker's history covers when none is asked for. */
    public static final int RERANKED_REPLIES_DEFAULT = 1_000;

    /** Conversation ids one listing answers, and how many when none is asked for. */
    public static final int CONVERSATION_IDS = 10_000;

    public static final int CONVERSATION_IDS_DEFAULT = 1_000;

    /** Recent turns a context request may leave out, and entry numbers one citation may name. */
    public static final int EXCLUDED_RECENT_TURNS = 1_000;

    public static final int CITED_ENTRIES = 1_000;

    /** The largest token budget of a tenant's period (chat-model tokens). */
    public static final long BUDGET_TOKENS = 1_000_000_000_000_000L;

    /** The largest cost of a tenant's period, in the operator's currency (a decimal, as validation reads it). */
    public static final String BUDGET_COST = "1000000000000";

    private FieldConstraints() {}
}
