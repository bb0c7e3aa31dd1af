package dev.memoir.jobs;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import com.github.kagkarlsson.scheduler.ScheduledExecution;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.Priority;
import com.github.kagkarlsson.scheduler.task.TaskDescriptor;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.TaskInstanceId;
import com.github.kagkarlsson.scheduler.task.helper.CustomTask;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;

import dev.memoir.common.audit.AuditActor;
import dev.memoir.tenant.TenantId;

/**
 * Durable background jobs on db-scheduler: a job is a row in PostgreSQL, queued in the caller's transaction, so
 * it exists exactly when the work that caused it was committed; it survives a restart and is retried with
 * exponential back-off. A job's id names what it works on, so queueing the same job twice is a no-op. A job that
 * fails on every retry is kept in the dead-letter list ({@link FailedJobs}) until an operator runs it again.
 *
 * <p>A job type is declared one way: the class that does its work has a nested {@code @Configuration} class
 * {@code JobType} whose {@code @Bean} is made here ({@link #task}, {@link #tenantTask}, {@link #slicedTask},
 * {@link #deferrableTask} or {@link #recurringTask}); {@link JobRunner} runs every such bean.
 * {@code ArchitectureTest} keeps it so.
 */
@Component
public class Jobs {

    private static final Logger log = LoggerFactory.getLogger(Jobs.class);

    private final SchedulerClient client;
    private final FailedJobs failed;
    private final JobRuns runs;
    private final ApplicationEventPublisher events;
    private final RetriedThenDeadLettered retries;
    private final List<JobHold> holds;

    Jobs(
            DataSource dataSource,
            JobProperties properties,
            FailedJobs failed,
            JobRuns runs,
            ApplicationEventPublisher events,
            List<JobHold> holds) {
        this.client = SchedulerClient.Builder.create(new TransactionAwareDataSourceProxy(dataSource))
                .enablePriority()
                .build();
        this.failed = failed;
        this.runs = runs;
        this.retries = new RetriedThenDeadLettered(properties, runs, failed);
        this.events = events;
        this.holds = List.copyOf(holds);
    }

    /** The memory jobs queued for a session, oldest first, with where each stands. */
    public List<JobStatus> ofSession(UUID sessionId) {
        return runs.ofSession(sessionId);
    }

    /** Forgets the outcomes of these sessions' memory jobs: part of deleting the sessions. */
    public void forgetSessions(Collection<UUID> sessionIds) {
        runs.forgetSessions(sessionIds);
    }

    /**
     * When the job runs next, if it is waiting (for its turn or a retry) or running, when the time is past; empty
     * once it is done or dead-lettered, or if it was never queued.
     */
    public Optional<Instant> nextRun(TaskDescriptor<?> job, TenantJobId id) {
        return client.getScheduledExecution(TaskInstanceId.of(job.getTaskName(), id.instanceId()))
                .map(ScheduledExecution::getExecutionTime);
    }

    /** Brings a waiting job forward to now; nothing when it is running, done, dead-lettered or not queued. */
    public void runNow(TaskDescriptor<?> job, TenantJobId id) {
        TaskInstanceId instance = TaskInstanceId.of(job.getTaskName(), id.instanceId());
        if (client.getScheduledExecution(instance)
                .filter(execution -> !execution.isPicked())
                .isEmpty()) {
            return;
        }
        try {
            client.reschedule(instance, Instant.now());
        } catch (RuntimeException e) {
            // Picked or finished meanwhile: it runs, or ran, on its own.
            log.debug("Job {} not brought forward: {}", instance, e.getMessage());
        }
    }

    /** How many jobs of the type are queued: waiting, running or waiting for a retry (not dead-lettered). */
    public long queued(TaskDescriptor<?> job) {
        return runs.scheduled(job.getTaskName());
    }

    /** Runs a dead-lettered job again (at once); false when no such job waits in the dead-letter list. */
    @Transactional
    public boolean retryFailed(String task, String id) {
        if (failed.remove(task, id).isEmpty()) {
            return false;
        }
        client.scheduleIfNotExists(new TaskInstance<Void>(task, id), Instant.now());
        runs.requeued(task, id);
        return true;
    }

    /**
     * Queues a job of no tenant (the service's own upkeep) unless one with the same id is already waiting or
     * running.
     */
    public void queue(TaskDescriptor<Void> job, String id) {
        client.scheduleIfNotExists(job.instance(id).priority(Priority.MEDIUM).build(), Instant.now());
        runs.queued(job.getTaskName(), id, null, null);
    }

    /** Queues a tenant's job unless one with the same id is already waiting or running. */
    public void queue(TaskDescriptor<?> job, TenantId tenant, String id) {
        queue(job, tenant, id, null);
    }

    /** Queues a tenant's job whose id carries its tenant, in the tenant's backlog as {@link #queue} does. */
    public void queue(TaskDescriptor<?> job, TenantJobId id) {
        queue(job, id.tenant(), id.instanceId(), null);
    }

    /**
     * Queues a job whose id carries its tenant outside the tenant's backlog, as a job of no tenant: a wait that may
     * last long must not lower the priority of the tenant's next jobs meanwhile.
     */
    public void queueOutsideBacklog(TaskDescriptor<Void> job, TenantJobId id) {
        queue(job, id.instanceId());
    }

    /**
     * Queues a tenant's job that writes memory of a session, listed with the session (see {@link #ofSession}).
     * Tenants take turns: a job runs after the jobs its own tenant queued before it, not after every other
     * tenant's. Its priority is lowered by one for each job of its tenant still waiting or running (up to
     * {@link TenantTurns#MOST_BEHIND}), so a tenant with none waiting goes first, one with one waiting next to the others'
     * second, and so on (the runners take the highest priority first, then the oldest). It is never above a
     * waiting job of its own tenant: a job queued when the tenant's backlog has shrunk does not overtake one queued
     * when it was longer, which would otherwise wait behind every newer job for as long as the tenant keeps
     * queueing.
     */
    public void queue(TaskDescriptor<?> job, TenantId tenant, String id, UUID sessionId) {
        JobRuns.Backlog backlog = runs.backlogOf(tenant, TenantTurns.MOST_BEHIND);
        int priority = TenantTurns.priorityBehind(backlog.waiting(), backlog.lowestPriority());
        client.scheduleIfNotExists(job.instance(id).priority(priority).build(), Instant.now());
        runs.queued(job.getTaskName(), id, tenant, sessionId);
    }

    /**
     * A long job done in slices: each run does a bounded slice of the work and answers whether any remains; if so
     * the job is queued again at once, so that other jobs get their turn in between and a restart resumes it
     * from what is already done. Failures are retried like any job's.
     */
    public CustomTask<Void> slicedTask(TaskDescriptor<Void> job, Predicate<String> sliceLeavingMore) {
        return Tasks.custom(job).onFailure(retries.handler()).execute((instance, context) -> {
            boolean more = AuditActor.as(
                    AuditActor.job(instance.getTaskName()), () -> sliceLeavingMore.test(instance.getId()));
            return (complete, operations) -> {
                if (more) {
                    operations.reschedule(complete, Instant.now());
                } else {
                    operations.remove();
                    finished(instance);
                }
            };
        });
    }

    /**
     * A job type whose work may put itself off: it answers when to run again, or empty when it is done. Putting off
     * is not a failure: it counts no retry and has no limit. Failures (the work throws) are retried like any job's.
     */
    public CustomTask<Void> deferrableTask(TaskDescriptor<Void> job, Function<TenantJobId, Optional<Instant>> work) {
        return puttingOff(job, (task, id) -> work.apply(TenantJobId.parse(id)), false);
    }

    /** A job whose run answers when to run again (empty when it is done), shown as deferred meanwhile or not. */
    private CustomTask<Void> puttingOff(
            TaskDescriptor<Void> job, BiFunction<String, String, Optional<Instant>> work, boolean shownDeferred) {
        return Tasks.custom(job).onFailure(retries.handler()).execute((instance, context) -> {
            Optional<Instant> again = AuditActor.as(
                    AuditActor.job(instance.getTaskName()), () -> work.apply(instance.getTaskName(), instance.getId()));
            return (complete, operations) -> {
                if (again.isPresent()) {
                    if (shownDeferred) {
                        runs.held(instance.getTaskName(), instance.getId(), again.get());
                    }
                    operations.reschedule(complete, again.get());
                } else {
                    operations.remove();
                    finished(instance);
                }
            };
        });
    }

    /**
     * A job type whose work is an attempt that goes on in the background, without holding a job thread while it
     * waits (a webhook delivery waiting for a receiver): a run starts the attempt and answers when to look again, and
     * the run the attempt's end brings forward ({@link #runNow}) collects its outcome. Starting, waiting and being held
     * back are no failures; a failed attempt ({@link JobStep#failed}) is retried with back-off and dead-lettered as any
     * failed job is. db-scheduler counts only failed runs in a row and forgets them on every other run, so the job
     * carries its own count of failed attempts as its data (a job run again from the dead-letter list starts from
     * none). A run that throws is a failure of its own, counted by db-scheduler.
     */
    public CustomTask<Integer> backgroundTask(TaskDescriptor<Integer> job, Function<TenantJobId, JobStep> work) {
        return Tasks.custom(job).onFailure(retries.<Integer>handler()).execute((instance, context) -> {
            JobStep step = AuditActor.as(
                    AuditActor.job(instance.getTaskName()), () -> work.apply(TenantJobId.parse(instance.getId())));
            int failedBefore = instance.getData() == null ? 0 : instance.getData();
            return (complete, operations) -> {
                switch (step) {
                    case JobStep.Done done -> {
                        operations.remove();
                        finished(instance);
                    }
                    case JobStep.LookAgain again -> operations.reschedule(complete, again.at(), failedBefore);
                    case JobStep.Failed failed ->
                        retries.afterFailure(
                                complete.getExecution(),
                                failedBefore + 1,
                                failed.cause(),
                                complete.getTimeDone(),
                                operations::remove,
                                at -> operations.reschedule(complete, at, failedBefore + 1));
                }
            };
        });
    }

    /**
     * Records the job done; when it was the last unfinished job of its session, says so ({@link SessionJobsDone})
     * to whatever waits for the session's memory.
     */
    private void finished(TaskInstance<?> instance) {
        runs.finished(instance.getTaskName(), instance.getId()).ifPresent(events::publishEvent);
    }

    /**
     * A tenant's job type whose work gets the tenant the job was queued for (from its run record, on the service's
     * own table) and the job's id, and is retried with back-off when it throws. Knowing the tenant, the work can name
     * it in every lookup: on a database distributed by tenant (Citus, docs/scaling.md) a lookup by id alone runs on
     * every shard. A job with no tenant on record is skipped: its record went with the sessions it was queued for,
     * which are gone (or, for a job queued before V35 recorded tenants and of no session, it is lost).
     *
     * <p>A job is held back while a {@link JobHold} says so (its tenant's budget is used up), or when the budget
     * refuses one of its model requests: it waits, shown as {@code deferred}, counting no failure, and is done again
     * from the start later (a job's work is idempotent).
     */
    public CustomTask<Void> tenantTask(TaskDescriptor<Void> job, BiConsumer<TenantId, String> work) {
        return puttingOff(job, new TenantJobRun(runs, holds, work)::runOrHold, true);
    }

    /** Brings the tenant's deferred jobs forward to look again whether they may run (its budget was raised). */
    public void resumeHeld(TenantId tenant) {
        runs.bringHeldForward(tenant);
    }

    /** A job type whose work gets the job's id and is retried with back-off when it throws. */
    public OneTimeTask<Void> task(TaskDescriptor<Void> job, Consumer<String> work) {
        return Tasks.oneTime(job).onFailure(retries.handler()).execute((instance, context) -> {
            AuditActor.runAs(AuditActor.job(instance.getTaskName()), () -> work.accept(instance.getId()));
            finished(instance);
        });
    }

    /**
     * A job type that runs every {@code interval} after its last run ended, on one instance at a time and also after
     * a restart (its row is shared by every instance). A run that throws is logged and the schedule goes on.
     */
    public RecurringTask<Void> recurringTask(String name, Duration interval, Runnable work) {
        return Tasks.recurring(name, FixedDelay.of(interval))
                .execute((instance, context) -> AuditActor.runAs(AuditActor.job(name), work));
    }
}
