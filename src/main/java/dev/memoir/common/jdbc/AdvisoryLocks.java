package dev.memoir.common.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.UUID;
import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * PostgreSQL advisory locks held until the caller's transaction ends: the one way Memoir serialises work that has no
 * row to lock yet (the first episode of a reply, a user's first conversation) or that spans instances. Every lock
 * belongs to a {@link Space}, whose seed keeps the keys of one space apart from another's; the seeds are registered
 * here and nowhere else, and never change (two instances of different versions must take the same lock).
 */
@Component
public class AdvisoryLocks {

    /** What a lock serialises; each space hashes its keys with its own seed. */
    public enum Space {
        /** Finding or opening a user's conversation (the OpenAI-compatible endpoint): one session for two first requests. */
        CONVERSATION(29),
        /** Everything done about one reply's learning episode, also before the episode exists. */
        REPLY_EPISODE(17),
        /** Folding a user's closed sessions into their recursive summary, one fold at a time. */
        SUMMARY_FOLD(0),
        /**
         * A user's data: held exclusively by erasing or importing the user, shared by every other writer of the
         * user's sessions, turns and memory, always as its transaction's first lock (see SessionService).
         */
        USER_MEMORY(37),
        /** The writes of one memory dedup key (two adds of the same fact at once). Shares USER_MEMORY's seed. */
        DEDUP_KEY(37),
        /** Registering a tenant's webhook endpoints: two at once cannot pass the limit together. */
        WEBHOOK_ENDPOINTS(43),
        /**
         * A ChatGPT or Claude export's import of a user, held shared on a connection of its own for the whole import
         * (several transactions), and exclusively by the user's erasure before anything else: the erasure waits for
         * the import, and an import that comes later waits for the erasure.
         */
        EXPORT_IMPORT(47);

        private final int seed;

        Space(int seed) {
            this.seed = seed;
        }
    }

    /** A lock held on a connection of its own, beyond any transaction: released, with the connection, on close. */
    public interface Hold extends AutoCloseable {
        @Override
        void close();
    }

    private static final Logger log = LoggerFactory.getLogger(AdvisoryLocks.class);

    private final JdbcClient jdbc;
    private final DataSource dataSource;

    AdvisoryLocks(JdbcClient jdbc, DataSource dataSource) {
        this.jdbc = jdbc;
        this.dataSource = dataSource;
    }

    /**
     * Takes the lock shared, waiting for an exclusive holder, on a connection of its own that keeps it across the
     * caller's transactions until the hold is closed: for work of several transactions that a transaction taking the
     * lock exclusively must wait for as a whole. The caller's own transactions do not take this lock, or they would
     * wait behind such a transaction that waits for the hold. A crash of the instance releases it with its
     * connection.
     */
    public Hold holdShared(Space space, String key) {
        // Never the caller's transaction's connection: one of its own, in autocommit.
        Connection connection;
        try {
            connection = dataSource.getConnection();
        } catch (SQLException e) {
            throw new CannotGetJdbcConnectionException("No connection for the " + space + " lock", e);
        }
        try {
            run(connection, "select pg_advisory_lock_shared(hashtextextended(?, ?))::text", space, key);
        } catch (SQLException | RuntimeException e) {
            close(connection);
            throw new DataAccessResourceFailureException("Could not take the " + space + " lock", e);
        }
        return () -> {
            try {
                run(connection, "select pg_advisory_unlock_shared(hashtextextended(?, ?))::text", space, key);
            } catch (SQLException | RuntimeException e) {
                // A connection that cannot release the lock must not go back to the pool holding it.
                log.warn("Could not release the {} lock; dropping its connection: {}", space, e.toString());
                try {
                    connection.abort(Runnable::run);
                } catch (SQLException ignored) {
                    // Gone with the connection either way.
                }
            } finally {
                close(connection);
            }
        };
    }

    private static void close(Connection connection) {
        try {
            connection.close();
        } catch (SQLException e) {
            log.debug("Closing a lock's connection failed", e);
        }
    }

    private static void run(Connection connection, String sql, Space space, String key) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, key);
            statement.setInt(2, space.seed);
            statement.executeQuery().close();
        }
    }

    /** The key of a lock about one user of a tenant. */
    public static String userKey(UUID tenant, String userId) {
        return tenant + "/" + userId;
    }

    /** Takes the lock exclusively, waiting for its holders, until the transaction ends. */
    @Transactional(propagation = Propagation.MANDATORY)
    public void lock(Space space, String key) {
        jdbc.sql("select pg_advisory_xact_lock(hashtextextended(?, ?))::text")
                .params(key, space.seed)
                .query(String.class)
                .single();
    }

    /** Takes the lock shared with other shared holders, waiting for an exclusive one, until the transaction ends. */
    @Transactional(propagation = Propagation.MANDATORY)
    public void lockShared(Space space, String key) {
        jdbc.sql("select pg_advisory_xact_lock_shared(hashtextextended(?, ?))::text")
                .params(key, space.seed)
                .query(String.class)
                .single();
    }
}
