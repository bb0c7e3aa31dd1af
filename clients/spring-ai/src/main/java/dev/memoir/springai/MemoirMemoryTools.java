package dev.memoir.springai;

import java.util.List;
import java.util.stream.Collectors;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;

/**
 * Memory the agent manages itself, as tools for {@code ChatClient.tools(...)}: remember, recall and forget. The user
 * is the tool context's {@link MemoirMemoryAdvisor#USER_ID} entry ({@code .toolContext(Map.of(USER_ID, userId))}),
 * never an argument the model chooses.
 */
public class MemoirMemoryTools {

    private static final int RECALLED = 10;
    private static final int PAGE = 100;
    private static final int LOOKED_THROUGH = 20_000;

    private final MemoirClient client;

    public MemoirMemoryTools(MemoirClient client) {
        this.client = client;
    }

    @Tool(
            description = "Remember a fact about the user or a preference they stated, for later conversations. "
                    + "Answers the memory's id.")
    public String remember(
            @ToolParam(description = "The fact, as one short self-contained sentence") String fact,
            ToolContext context) {
        Memory memory = client.remember(user(context), fact);
        return "Remembered as " + memory.id();
    }

    @Tool(
            description = "Search what is remembered about the user. Answers the best matches, one per line, each "
                    + "with its id.")
    public String recall(@ToolParam(description = "What to look for") String query, ToolContext context) {
        List<Memory> found = client.recall(user(context), query, RECALLED);
        if (found.isEmpty()) {
            return "Nothing remembered matches.";
        }
        return found.stream().map(m -> m.id() + ": " + m.text()).collect(Collectors.joining("\n"));
    }

    @Tool(description = "Forget one memory of the user by the id that recall answered.")
    public String forget(
            @ToolParam(description = "The memory's id, as recall answered it") String memoryId, ToolContext context) {
        if (!isTheUsers(user(context), memoryId)) {
            return "No memory of this user has the id " + memoryId + ".";
        }
        client.forget(memoryId);
        return "Forgot " + memoryId;
    }

    /**
     * Whether the memory is the user's: Memoir deletes any memory of the tenant by id, so the id is looked for
     * among the user's own, a page at a time, up to {@value #LOOKED_THROUGH} of them.
     */
    private boolean isTheUsers(String user, String memoryId) {
        String cursor = null;
        for (int seen = 0; seen < LOOKED_THROUGH; seen += PAGE) {
            MemoirClient.MemoryPage page = client.page(user, null, PAGE, cursor);
            if (page.items().stream().anyMatch(m -> memoryId.equals(m.id()))) {
                return true;
            }
            cursor = page.nextCursor();
            if (cursor == null) {
                return false;
            }
        }
        return false;
    }

    private static String user(ToolContext context) {
        Object user = context == null ? null : context.getContext().get(MemoirMemoryAdvisor.USER_ID);
        if (user == null || user.toString().isBlank()) {
            throw new IllegalStateException("Memoir's memory tools need the user in the tool context: "
                    + ".toolContext(Map.of(MemoirMemoryAdvisor.USER_ID, userId))");
        }
        return user.toString();
    }
}
