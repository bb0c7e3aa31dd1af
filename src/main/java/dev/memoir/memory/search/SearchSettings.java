package dev.memoir.memory.search;

import java.util.Map;
import java.util.Set;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * How a search's transaction gets its settings (plan for the actual values, no parallel workers, the HNSW scan's
 * ef_search): one statement, one round trip, sent first in the transaction, in the form the database needs, chosen
 * once when the service starts. On PostgreSQL, {@code set_config} with is_local (settings.sql). On a Citus
 * coordinator, SET LOCAL commands, which Citus sends to the workers that run the transaction's statements when
 * {@code citus.propagate_set_commands} is 'local', with the connection's {@code hnsw.iterative_scan} among them: Citus
 * never sends a {@code set_config} or a session setting (docs/scaling.md). The search floor is one round trip for
 * the settings on either (docs/scale-benchmark.md, "The search floor").
 */
@Component
public class SearchSettings {

    /** The values pgvector takes for {@code hnsw.iterative_scan}, the only setting sent as read. */
    private static final Set<String> ITERATIVE_SCANS = Set.of("off", "strict_order", "relaxed_order");

    private final boolean citus;
    private final String iterativeScan;

    /** Reads once which database this is: PostgreSQL, or a Citus coordinator, and its connections' iterative scan. */
    @Autowired
    SearchSettings(JdbcClient jdbc) {
        this(cluster(jdbc));
    }

    private SearchSettings(Map.Entry<Boolean, String> cluster) {
        this(cluster.getKey(), cluster.getValue());
    }

    private static Map.Entry<Boolean, String> cluster(JdbcClient jdbc) {
        return jdbc.sql("select exists (select 1 from pg_extension where extname = 'citus'), "
                        + "current_setting('hnsw.iterative_scan', true)")
                .query((rs, row) -> Map.entry(rs.getBoolean(1), String.valueOf(rs.getString(2))))
                .single();
    }

    /** The settings for a database with or without Citus, whose connections have this iterative scan. */
    public SearchSettings(boolean citus, String iterativeScan) {
        this.citus = citus;
        this.iterativeScan = ITERATIVE_SCANS.contains(iterativeScan) ? iterativeScan : null;
    }

    /** Sends the settings of a search whose HNSW scan reads {@code efSearch} candidates, in the caller's transaction. */
    void apply(JdbcClient jdbc, int efSearch) {
        if (citus) {
            jdbc.sql(onTheWorkers(efSearch, iterativeScan)).update();
        } else {
            jdbc.sql(SearchStatement.SETTINGS)
                    .param("efSearch", String.valueOf(efSearch))
                    .query()
                    .listOfRows();
        }
    }

    /**
     * The settings as SET LOCAL commands, for a Citus coordinator: Citus sends the SET LOCAL commands of a transaction
     * to the workers that run its statements when citus.propagate_set_commands is 'local'.
     */
    public static String onTheWorkers(int efSearch, String iterativeScan) {
        StringBuilder commands = new StringBuilder("set local citus.propagate_set_commands = 'local'; "
                + "set local plan_cache_mode = force_custom_plan; set local max_parallel_workers_per_gather = 0; "
                + "set local hnsw.ef_search = " + efSearch);
        if (iterativeScan != null) {
            commands.append("; set local hnsw.iterative_scan = ").append(iterativeScan);
        }
        return commands.toString();
    }
}
