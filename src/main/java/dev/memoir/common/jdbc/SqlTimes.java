package dev.memoir.common.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Instants to and from PostgreSQL's timestamptz, for plain JDBC: null stays null. */
public final class SqlTimes {

    private SqlTimes() {}

    public static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp timestamp = rs.getTimestamp(column);
        return timestamp == null ? null : timestamp.toInstant();
    }

    /** A parameter PostgreSQL reads as a timestamptz, not a local time. */
    public static OffsetDateTime timestamptz(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }
}
