package dev.memoir.common.jdbc;

import javax.sql.DataSource;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * JDBC that streams: rows fetched a few hundred at a time through a cursor, which the caller's transaction keeps
 * open. Without a fetch size, PostgreSQL's driver reads a whole result into memory before the first row is seen.
 */
public final class StreamingJdbc {

    private StreamingJdbc() {}

    public static JdbcClient of(DataSource dataSource) {
        JdbcTemplate template = new JdbcTemplate(dataSource);
        template.setFetchSize(500);
        return JdbcClient.create(template);
    }
}
