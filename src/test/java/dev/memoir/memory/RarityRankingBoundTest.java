package dev.memoir.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

import dev.memoir.llm.TextEmbedder;
import dev.memoir.support.IntegrationTest;
import dev.memoir.tenant.TenantId;

/**
 * The rarity ranking reads at most {@code rarityRowsPerWord} of a user's memories per query word, so that a word
 * in thousands of a large user's memories does not make every search read all of them; the memories holding the
 * query's rare words must still come first.
 */
class RarityRankingBoundTest extends IntegrationTest {

    private static final int COMMON = 400;
    private static final int BOUND = 100;

    @Autowired
    JdbcClient jdbc;
    @Autowired
    NamedParameterJdbcTemplate namedJdbc;
    @Autowired
    TransactionTemplate transaction;
    @Autowired
    TextEmbedder embedder;
    @Autowired
    SearchProperties defaults;

    private TenantId tenant;

    @BeforeEach
    void aUserWithACommonWordInHundredsOfMemories() {
        tenant = new TenantId(UUID.randomUUID());
        jdbc.sql("insert into tenants (id, name) values (?, ?)").param(tenant.value()).param("rarity-" + tenant.value())
                .update();
        float[] vector = unit();
        for (int i = 0; i < COMMON; i++) {
            insert("User: the weather was grey again on day " + i, vector);
        }
        for (int i = 0; i < 5; i++) {
            insert("User: the weather in Copenhagen was grey, visit " + i, vector);
        }
        jdbc.sql("analyze memory_records").update();
    }

    private void insert(String text, float[] vector) {
        jdbc.sql("""
                insert into memory_records (id, tenant_id, user_id, kind, text, embedding, embedding_model,
                    created_at, updated_at)
                values (?, ?, 'big', 'history', ?, cast(? as vector), ?, now(), now())""")
                .params(UUID.randomUUID(), tenant.value(), text, Vectors.literal(vector), embedder.modelName())
                .update();
    }

    @AfterEach
    void removeTheTenant() {
        jdbc.sql("delete from tenants where id = ?").param(tenant.value()).update();
    }

    @Test
    void aWordInMoreMemoriesThanTheBoundIsReadOnlyUpToItAndTheRareWordsMemoriesStillComeFirst() {
        HybridSearchRepository bounded = new HybridSearchRepository(namedJdbc, withRowsPerWord(BOUND));
        List<String> texts = lexicalSearch(bounded, 300);

        assertThat(texts).hasSizeLessThanOrEqualTo(BOUND + 5);
        assertThat(texts.subList(0, 5)).allMatch(text -> text.contains("Copenhagen"));
    }

    @Test
    void belowTheBoundEveryMemoryHoldingAQueryWordIsRanked() {
        HybridSearchRepository unbounded = new HybridSearchRepository(namedJdbc, withRowsPerWord(COMMON + 5));
        List<String> texts = lexicalSearch(unbounded, 1000);

        assertThat(texts).hasSize(COMMON + 5);
        assertThat(texts.subList(0, 5)).allMatch(text -> text.contains("Copenhagen"));
    }

    private List<String> lexicalSearch(HybridSearchRepository repository, int limit) {
        MemorySearch search = MemorySearch.of(tenant, "big", Set.of(MemoryKind.HISTORY),
                new SearchQuery("weather in Copenhagen", unit()), limit).using(SearchMode.LEXICAL);
        return transaction.execute(status -> repository.search(search, embedder.modelName()).stream()
                .map(hit -> hit.memory().text()).toList());
    }

    private static float[] unit() {
        float[] vector = new float[384];
        vector[0] = 1;
        return vector;
    }

    private SearchProperties withRowsPerWord(int rowsPerWord) {
        return new SearchProperties(defaults.mode(), defaults.rrfK(), defaults.denseWeight(), defaults.lexicalWeight(),
                defaults.candidates(), defaults.lexicalRanking(), defaults.lexicalNormalization(),
                defaults.efSearchFactor(), defaults.raritySample(), rowsPerWord);
    }
}
