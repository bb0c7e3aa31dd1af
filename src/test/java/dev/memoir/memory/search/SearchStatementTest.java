package dev.memoir.memory.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.postgresql.util.PGobject;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.PreparedStatementCreator;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.SqlProvider;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterUtils;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.MemorySearch;
import dev.memoir.memory.api.SearchMode;
import dev.memoir.memory.api.SearchQuery;
import dev.memoir.memory.api.Validity;
import dev.memoir.tenant.TenantId;

/**
 * The statements HybridSearchRepository composes from sql/memory-search/, for every lexical ranking, fusion and
 * recency setting, without a database: whole (no placeholder or header comment left), every named parameter
 * bound, and the parts each setting chooses. The scale benchmark composes the same files
 * (bench/scale/search_sql.py) and reads the service's logged statements by the order of their parameters.
 */
class SearchStatementTest {

    private record Sent(String sql, SqlParameterSource params) {}

    /**
     * Records every statement the repository sends through {@link #client()}, and answers nothing. JdbcClient
     * (Spring Framework 7.0) sends a query with named parameters to {@code query(sql, params, rowMapper)} (a list of
     * rows or of one column's values alike) or, for maps, {@code queryForList(sql, params)}, and a statement without
     * parameters to its template's {@code update(PreparedStatementCreator)}.
     */
    private static final class Recorder extends NamedParameterJdbcTemplate {
        final List<Sent> sent = new ArrayList<>();
        /** Statements without parameters: the SET LOCAL commands for a Citus cluster's workers. */
        final List<String> executed;

        Recorder() {
            this(new ArrayList<>());
        }

        private Recorder(List<String> executed) {
            super(new JdbcTemplate() {
                @Override
                public int update(PreparedStatementCreator statement) {
                    executed.add(((SqlProvider) statement).getSql());
                    return 0;
                }
            });
            this.executed = executed;
        }

        /** The client the repository is given, sending through this recorder. */
        JdbcClient client() {
            return JdbcClient.create(this);
        }

        @Override
        public <T> List<T> query(String sql, SqlParameterSource params, RowMapper<T> mapper) {
            sent.add(new Sent(sql, params));
            return List.of();
        }

        @Override
        public List<Map<String, Object>> queryForList(String sql, SqlParameterSource params) {
            sent.add(new Sent(sql, params));
            return List.of();
        }
    }

    private static final MemorySearch SEARCH = new MemorySearch(
            new TenantId(UUID.fromString("00000000-0000-0000-0000-00000000000a")),
            "ana",
            Set.of(MemoryKind.FACT),
            new SearchQuery("What did Ana buy in October 2022?", new float[] {0.25f, -0.5f}),
            10,
            List.of(),
            null,
            null,
            null,
            null,
            null,
            Validity.LIVE,
            null);

    private static SearchProperties settings(
            SearchProperties.LexicalRanking ranking, SearchProperties.Fusion fusion, double recencyWeight) {
        return new SearchProperties(
                SearchMode.HYBRID, 20, 1.0, 1.0, 100, ranking, 0, 4, 2000, fusion, 1.0, recencyWeight);
    }

    @Test
    void everyStatementIsWholeAndEveryParameterItNamesIsBound() {
        for (SearchProperties.LexicalRanking ranking : SearchProperties.LexicalRanking.values()) {
            for (SearchProperties.Fusion fusion : SearchProperties.Fusion.values()) {
                for (double recency : new double[] {0.0, 2.5}) {
                    Recorder jdbc = new Recorder();
                    HybridSearchRepository repository =
                            new HybridSearchRepository(jdbc.client(), settings(ranking, fusion, recency), POSTGRESQL);
                    repository.search(SEARCH, "bge-small-en-v1.5");
                    repository.plan(SEARCH.using(SearchMode.LEXICAL), "bge-small-en-v1.5");
                    repository.newest(SEARCH, null, null);
                    repository.newest(SEARCH, Instant.parse("2024-01-01T00:00:00Z"), UUID.randomUUID());

                    assertThat(jdbc.sent).hasSize(6);
                    for (Sent sent : jdbc.sent) {
                        assertThat(sent.sql())
                                .as("%s %s %s", ranking, fusion, recency)
                                .doesNotContainPattern("%\\d+\\$s")
                                .doesNotContain("--")
                                .doesNotEndWith("\n");
                        // Throws for a named parameter without a value.
                        NamedParameterUtils.buildValueArray(
                                NamedParameterUtils.parseSqlStatement(sent.sql()), sent.params(), null);
                    }
                }
            }
        }
    }

    @Test
    void theSearchStatementTakesThePartsItsSettingsChoose() {
        String rarity = SearchStatement.of(
                settings(SearchProperties.LexicalRanking.RARITY, SearchProperties.Fusion.COVERAGE_WEIGHTED, 0));
        assertThat(rarity)
                .contains(
                        "weights as materialized",
                        "ts_rank(m.search_vector, q.query, :normalization)",
                        "score / nullif((select sum(w.idf) from weights w), 0) as coverage",
                        "ranked as (select *, null::bigint as recency_rank from fused)")
                .doesNotContain("dated as");

        String plain =
                SearchStatement.of(settings(SearchProperties.LexicalRanking.RARITY, SearchProperties.Fusion.RRF, 0));
        assertThat(plain).contains("weights as materialized", "1 as coverage");

        String coverDensity = SearchStatement.of(
                settings(SearchProperties.LexicalRanking.TS_RANK_CD, SearchProperties.Fusion.COVERAGE_WEIGHTED, 3));
        assertThat(coverDensity)
                .contains(
                        "ts_rank_cd(m.search_vector, q.query, :normalization) as score",
                        "1 as coverage",
                        "dated as (",
                        ":recencyWeight / (:rrfK + recency_rank)")
                .doesNotContain("weights", "null::bigint as recency_rank");
    }

    @Test
    void theBenchmarkFindsTheQueryVectorAndTheUserFirstAmongTheLoggedParameters() {
        Recorder jdbc = new Recorder();
        new HybridSearchRepository(
                        jdbc.client(),
                        settings(SearchProperties.LexicalRanking.RARITY, SearchProperties.Fusion.COVERAGE_WEIGHTED, 0),
                        POSTGRESQL)
                .search(SEARCH, "bge-small-en-v1.5");
        Sent search = jdbc.sent.getLast();

        Object[] values = NamedParameterUtils.buildValueArray(
                NamedParameterUtils.parseSqlStatement(search.sql()), search.params(), null);

        assertThat(search.sql()).startsWith("with dense as (");
        assertThat(values[0])
                .isInstanceOf(PGobject.class)
                .extracting(v -> ((PGobject) v).getType())
                .isEqualTo("vector");
        assertThat(values[2]).isEqualTo("ana");
    }

    private static final SearchSettings POSTGRESQL = new SearchSettings(false, "relaxed_order");
    private static final SearchSettings CITUS = new SearchSettings(true, "relaxed_order");

    /**
     * The search floor (issue 46): a search sends its settings in one statement before the search itself, as
     * set_config on PostgreSQL and as SET LOCAL commands on Citus, never both (both cost one more round trip on every
     * search).
     */
    @Test
    void aSearchSendsItsSettingsInOneStatementInTheFormItsDatabaseNeeds() {
        SearchProperties defaults =
                settings(SearchProperties.LexicalRanking.RARITY, SearchProperties.Fusion.COVERAGE_WEIGHTED, 0);
        Recorder postgres = new Recorder();
        new HybridSearchRepository(postgres.client(), defaults, POSTGRESQL).search(SEARCH, "bge-small-en-v1.5");
        assertThat(postgres.executed).isEmpty();
        assertThat(postgres.sent).hasSize(2);
        assertThat(postgres.sent.getFirst().sql()).startsWith("select set_config('plan_cache_mode'");

        Recorder citus = new Recorder();
        new HybridSearchRepository(citus.client(), defaults, CITUS).search(SEARCH, "bge-small-en-v1.5");
        assertThat(citus.executed)
                .containsExactly("set local citus.propagate_set_commands = 'local'; set local plan_cache_mode = "
                        + "force_custom_plan; set local max_parallel_workers_per_gather = 0; set local "
                        + "hnsw.ef_search = 400; set local hnsw.iterative_scan = relaxed_order");
        assertThat(citus.sent).hasSize(1);
        assertThat(citus.sent.getFirst().sql()).startsWith("with dense as (");
    }
}
