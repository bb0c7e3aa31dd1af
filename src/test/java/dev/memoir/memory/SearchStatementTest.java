package dev.memoir.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

import dev.memoir.tenant.TenantId;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;

class SearchStatementTest {

    /** Records every statement the repository sends, with its parameters, and answers nothing. */
    static final class Recorder extends NamedParameterJdbcTemplate {
        final List<String> sent = new ArrayList<>();

        Recorder() {
            super(new JdbcTemplate());
        }

        private void record(String sql, SqlParameterSource params) {
            Map<String, String> values = new TreeMap<>();
            for (String name : params.getParameterNames()) {
                values.put(name, String.valueOf(params.getValue(name)));
            }
            sent.add(sql + "\n-- params " + values);
        }

        @Override
        public <T> List<T> query(String sql, SqlParameterSource params, RowMapper<T> mapper) {
            record(sql, params);
            return List.of();
        }

        @Override
        public List<Map<String, Object>> queryForList(String sql, SqlParameterSource params) {
            record(sql, params);
            return List.of();
        }

        @Override
        public <T> List<T> queryForList(String sql, SqlParameterSource params, Class<T> type) {
            record(sql, params);
            return List.of();
        }
    }

    private static final SearchProperties.LexicalRanking[] RANKINGS = SearchProperties.LexicalRanking.values();

    @Test
    void theRepositorySendsTheStatementsItSentBeforeTheSqlMovedToResources() throws IOException {
        String capture = System.getProperty("memoir.captureSearchSql");
        MemorySearch search = new MemorySearch(new TenantId(UUID.fromString("00000000-0000-0000-0000-00000000000a")),
                "ana", Set.of(MemoryKind.FACT), new SearchQuery("What did Ana buy in October 2022?",
                        new float[] {0.25f, -0.5f}), 10, List.of(), null, null, null, null, null, Validity.LIVE);
        for (SearchProperties.LexicalRanking ranking : RANKINGS) {
            for (SearchProperties.Fusion fusion : SearchProperties.Fusion.values()) {
                for (double recency : new double[] {0.0, 2.5}) {
                    Recorder jdbc = new Recorder();
                    HybridSearchRepository repository = new HybridSearchRepository(jdbc, new SearchProperties(
                            SearchMode.HYBRID, 20, 1.0, 1.0, 100, ranking, 0, 4, 2000, fusion, 1.0, recency));
                    repository.search(search, "bge-small-en-v1.5");
                    repository.plan(search.using(SearchMode.DENSE), "bge-small-en-v1.5");
                    repository.newest(search, null, null);
                    repository.newest(search, Instant.parse("2024-01-01T00:00:00Z"),
                            UUID.fromString("00000000-0000-0000-0000-00000000000b"));
                    String name = ranking + "-" + fusion + "-" + recency + ".sql";
                    String sent = String.join("\n-- next\n", jdbc.sent);
                    if (capture != null) {
                        Files.createDirectories(Path.of(capture));
                        Files.writeString(Path.of(capture, name), sent);
                    } else {
                        try (InputStream in = getClass().getResourceAsStream("/search-sql-before/" + name)) {
                            assertThat(in).as(name).isNotNull();
                            assertThat(sent).as(name).isEqualTo(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                        }
                    }
                }
            }
        }
    }
}
