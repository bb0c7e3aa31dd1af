package dev.memoir.webhook;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.task.TaskDescriptor;

import dev.memoir.jobs.JobStatus;
import dev.memoir.jobs.Jobs;
import dev.memoir.jobs.SessionJobsDone;
import dev.memoir.jobs.TenantJobId;
import dev.memoir.session.SessionService;
import dev.memoir.tenant.TenantId;

/**
 * The {@code webhook-memories-written} job: waits for a closed session's memory jobs, then queues
 * {@code session.memories-written}.
 */
@Component
class MemoriesWrittenWait {

    static final TaskDescriptor<Void> JOB = TaskDescriptor.of("webhook-memories-written");

    /**
     * How long the wait for a session's memory jobs sleeps between looks: the last of the jobs wakes it at once
     * ({@link #onSessionJobsDone}), so this only bounds how late it is when that wake-up came while it was looking.
     */
    private static final Duration RECHECK = Duration.ofMinutes(1);

    private final Jobs jobs;
    private final SessionService sessions;
    private final TransactionTemplate transaction;
    private final WebhookOutbox outbox;

    MemoriesWrittenWait(Jobs jobs, SessionService sessions, TransactionTemplate transaction, WebhookOutbox outbox) {
        this.jobs = jobs;
        this.sessions = sessions;
        this.transaction = transaction;
        this.outbox = outbox;
    }

    /** Starts waiting for the session's memory jobs, when an endpoint of the tenant asked for the event. */
    void start(TenantId tenant, UUID sessionId) {
        if (outbox.anySubscriber(tenant, WebhookEvent.SESSION_MEMORIES_WRITTEN)) {
            // A wait that may last as long as the session's jobs must not count in the tenant's backlog.
            jobs.queueOutsideBacklog(JOB, new TenantJobId(tenant, sessionId));
        }
    }

    /** The last memory job of a session finished: a wait for the session's memories looks again at once. */
    @EventListener
    void onSessionJobsDone(SessionJobsDone done) {
        jobs.runNow(JOB, new TenantJobId(done.tenant(), done.sessionId()));
    }

    /**
     * The job, by {@code <tenantId>:<sessionId>}: once none of the closed session's memory jobs is left to run,
     * queues {@code session.memories-written}; until then it waits (a dead-lettered job keeps it waiting until an
     * operator runs that job again). Nothing when the session was deleted or its user erased meanwhile: the session
     * is held against erasure while the event is queued.
     */
    Optional<Instant> run(TenantJobId wait) {
        TenantId tenant = wait.tenant();
        UUID sessionId = wait.id();
        List<JobStatus> memoryJobs = jobs.ofSession(sessionId);
        if (memoryJobs.stream().anyMatch(job -> job.state() != JobStatus.State.done)) {
            return Optional.of(Instant.now().plus(RECHECK));
        }
        transaction.executeWithoutResult(status -> sessions.hold(tenant, sessionId)
                .ifPresent(session -> {
                    WebhookData data = new WebhookData.MemoriesWritten(
                            session.userId(),
                            sessionId,
                            memoryJobs.stream()
                                    .map(JobStatus::task)
                                    .distinct()
                                    .sorted()
                                    .toList());
                    outbox.fanOut(tenant, WebhookEvent.SESSION_MEMORIES_WRITTEN, session.userId(), data);
                }));
        return Optional.empty();
    }

    /** Put off without counting as a failure while the session's memory jobs are still running. */
    @Configuration(proxyBeanMethods = false)
    static class JobType {

        @Bean
        Task<Void> webhookMemoriesWritten(Jobs jobs, MemoriesWrittenWait wait) {
            return jobs.deferrableTask(JOB, wait::run);
        }
    }
}
