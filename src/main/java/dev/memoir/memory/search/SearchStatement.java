package dev.memoir.memory.search;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The hybrid search's SQL, composed of its parts for the deployment's search settings ({@link
 * HybridSearchRepository} runs it).
 */
final class SearchStatement {

    // The statement's parts, in src/main/resources/sql/memory-search/ (each file says what it is and which
    // placeholders it takes). bench/scale/search_sql.py composes the same files for the scale benchmark's raw SQL,
    // so a change to how they are composed goes there too.
    static final String FILTERS = part("filters");
    static final String COLUMNS = part("columns");
    private static final String DENSE = part("dense");
    private static final String LEXICAL_BY_FUNCTION = part("lexical-by-function");
    private static final String LEXICAL_BY_RARITY = part("lexical-by-rarity");
    private static final String LEXICAL_COVERAGE = part("lexical-coverage");
    private static final String RANKED = part("ranked");
    private static final String RANKED_WITH_RECENCY = part("ranked-with-recency");
    private static final String SEARCH = part("search");
    static final String SETTINGS = part("settings");

    private SearchStatement() {}

    /** The search statement for these settings, composed of its parts. */
    static String of(SearchProperties properties) {
        boolean rarity = properties.lexicalRanking() == SearchProperties.LexicalRanking.RARITY;
        String lexical = rarity
                ? LEXICAL_BY_RARITY.formatted(FILTERS)
                : LEXICAL_BY_FUNCTION.formatted(
                        FILTERS, properties.lexicalRanking().function());
        String coverage =
                rarity && properties.fusion() == SearchProperties.Fusion.COVERAGE_WEIGHTED ? LEXICAL_COVERAGE : "1";
        return SEARCH.formatted(
                FILTERS,
                lexical,
                coverage,
                COLUMNS,
                properties.recencyWeight() > 0 ? RANKED_WITH_RECENCY : RANKED,
                DENSE.formatted(FILTERS));
    }

    /**
     * One part of the statement without its header comment, read once when the class loads: a part missing from
     * the classpath stops the service at startup, not at its first search.
     */
    private static String part(String name) {
        String path = "sql/memory-search/" + name + ".sql";
        try (InputStream in = SearchStatement.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("The search statement's part " + path + " is not on the classpath");
            }
            List<String> lines = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .toList();
            int body = 0;
            while (body < lines.size()
                    && (lines.get(body).startsWith("--") || lines.get(body).isBlank())) {
                body++;
            }
            return String.join("\n", lines.subList(body, lines.size()));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + path, e);
        }
    }
}
