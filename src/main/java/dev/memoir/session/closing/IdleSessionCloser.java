package dev.memoir.session.closing;

import java.time.Instant;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.stereotype.Component;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;

import dev.memoir.jobs.Jobs;
import dev.memoir.session.config.SessionProperties;
import dev.memoir.session.store.IdleSession;

/**
 * Closes sessions that their client left open past {@code memoir.session.idle-close-after}, each in its own
 * transaction, exactly as {@code POST /sessions/{id}/close} does: the memory written at a close is queued.
 */
@Component
class IdleSessionCloser {

    private static final Logger log = LoggerFactory.getLogger(IdleSessionCloser.class);
    private static final int BATCH = 100;

    private final SessionCloser sessions;
    private final SessionProperties properties;

    IdleSessionCloser(SessionCloser sessions, SessionProperties properties) {
        this.sessions = sessions;
        this.properties = properties;
    }

    /** Answers how many sessions it closed. */
    int closeIdleSessions() {
        if (properties.idleCloseAfter().isZero()) {
            return 0;
        }
        Instant cutoff = Instant.now().minus(properties.idleCloseAfter());
        int closed = 0;
        List<IdleSession> idle;
        IdleSession last = null;
        do {
            idle = sessions.idleOpenSessions(cutoff, BATCH);
            for (IdleSession session : idle) {
                if (sessions.closeIfIdle(session, cutoff)) {
                    closed++;
                }
            }
            // A session that got a turn meanwhile stays open and leaves the idle list; one that did not close for
            // another reason would come back first: stop rather than loop on it.
            if (!idle.isEmpty() && idle.getFirst().equals(last)) {
                break;
            }
            last = idle.isEmpty() ? null : idle.getFirst();
        } while (idle.size() == BATCH);
        if (closed > 0) {
            log.info("Closed {} idle sessions", closed);
        }
        return closed;
    }

    @Configuration(proxyBeanMethods = false)
    static class JobType {

        @Bean
        RecurringTask<Void> idleSessionCloseTask(Jobs jobs, IdleSessionCloser closer, SessionProperties properties) {
            return jobs.recurringTask("idle-session-close", properties.idleCheckEvery(), closer::closeIdleSessions);
        }
    }
}
