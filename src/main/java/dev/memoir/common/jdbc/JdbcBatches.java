package dev.memoir.common.jdbc;

import java.util.List;

import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;
import org.springframework.stereotype.Component;

/**
 * Batch statements: one statement sent with many rows of named parameters in one round trip. Memoir writes native SQL
 * with {@code JdbcClient} alone, and Spring Framework 7.0's {@code JdbcClient} has no batch, so this is the one place
 * outside it that reaches a {@code NamedParameterJdbcTemplate} (ArchitectureTest keeps it so).
 */
@Component
public class JdbcBatches {

    private final NamedParameterJdbcTemplate jdbc;

    JdbcBatches(NamedParameterJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Sends {@code sql} once per row, in one batch, in the caller's transaction; the rows each statement changed. */
    public int[] update(String sql, List<? extends SqlParameterSource> rows) {
        if (rows.isEmpty()) {
            return new int[0];
        }
        return jdbc.batchUpdate(sql, rows.toArray(SqlParameterSource[]::new));
    }
}
