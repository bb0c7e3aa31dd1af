package dev.memoir.common.jdbc;

import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;
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
        DEDUP_KEY(37);

        private final int seed;

        Space(int seed) {
            this.seed = seed;
        }
    }

    private final JdbcTemplate jdbc;

    AdvisoryLocks(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The key of a lock about one user of a tenant. */
    public static String userKey(UUID tenant, String userId) {
        return tenant + "/" + userId;
    }

    /** Takes the lock exclusively, waiting for its holders, until the transaction ends. */
    @Transactional(propagation = Propagation.MANDATORY)
    public void lock(Space space, String key) {
        jdbc.queryForObject(
                "select pg_advisory_xact_lock(hashtextextended(?, ?))::text", String.class, key, space.seed);
    }

    /** Takes the lock shared with other shared holders, waiting for an exclusive one, until the transaction ends. */
    @Transactional(propagation = Propagation.MANDATORY)
    public void lockShared(Space space, String key) {
        jdbc.queryForObject(
                "select pg_advisory_xact_lock_shared(hashtextextended(?, ?))::text", String.class, key, space.seed);
    }
}
