package dev.memoir.memory;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

import dev.memoir.llm.TextEmbedder;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.MemorySearch;
import dev.memoir.memory.api.SearchQuery;
import dev.memoir.memory.search.HybridSearchRepository;
import dev.memoir.tenant.TenantId;

/**
 * For tests outside this package (CitusTest): the plan of the service's own search statement, and the settings a
 * statement run after the search's settings sees, both in one transaction as a search runs.
 */
public final class SearchProbe {

    private SearchProbe() {}

    private static MemorySearch search(TenantId tenant, String userId, String text, float[] embedding) {
        return MemorySearch.of(tenant, userId, Set.of(MemoryKind.values()), new SearchQuery(text, embedding), 10);
    }

    /** EXPLAIN of the hybrid search of the user's memories, planned as the service plans it. */
    public static List<String> plan(ApplicationContext context, TenantId tenant, String userId, String text) {
        HybridSearchRepository repository = context.getBean(HybridSearchRepository.class);
        TextEmbedder embedder = context.getBean(TextEmbedder.class);
        float[] embedding = embedder.embedQuery(text);
        return context.getBean(TransactionTemplate.class)
                .execute(status -> repository.plan(search(tenant, userId, text, embedding), embedder.modelName()));
    }

    /**
     * Prepares a search of the user as the service does (its settings applied in the transaction), then runs
     * {@code probe} in the same transaction and answers its one row.
     */
    public static Map<String, Object> afterSearchSettings(
            ApplicationContext context, TenantId tenant, String userId, String probe, Object... args) {
        HybridSearchRepository repository = context.getBean(HybridSearchRepository.class);
        TextEmbedder embedder = context.getBean(TextEmbedder.class);
        float[] embedding = embedder.embedQuery("probe");
        JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
        return context.getBean(TransactionTemplate.class).execute(status -> {
            repository.plan(search(tenant, userId, "probe", embedding), embedder.modelName());
            return jdbc.queryForMap(probe, args);
        });
    }
}
