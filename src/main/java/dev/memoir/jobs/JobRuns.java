package dev.memoir.jobs;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import dev.memoir.common.jdbc.SqlTimes;
import dev.memoir.tenant.TenantId;

/**
 * The outcome of every queued job (db-scheduler keeps a job only until it has run), for showing a session's memory
 * jobs. Written in the transaction that queues the job, and by the job's runner when it finishes or fails.
 */
@Repository
class JobRuns {

    private final JdbcClient jdbc;

    JobRuns(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** A job queued again after it finished (the reranker's training, say) starts a fresh record. */
    void queued(String task, String instance, TenantId tenant, UUID sessionId) {
        jdbc.sql("""
                insert into job_runs (task_name, task_instance, tenant_id, session_id, queued_at)
                values (?, ?, ?, ?, now())
                on conflict (task_name, task_instance) do update
                    set queued_at = now(), finished_at = null, failures = 0, last_error = null,
                        tenant_id = excluded.tenant_id, held_until = null
                    where job_runs.finished_at is not null""")
                .params(task, instance, tenant == null ? null : tenant.value(), sessionId)
                .update();
    }

    /** A tenant's jobs queued and not yet done, and the lowest priority among them (null when there is none). */
    record Backlog(int waiting, Integer lowestPriority) {}

    /**
     * The tenant's jobs queued and not yet done (waiting, running or waiting to be retried), read up to
     * {@code most} of them: enough to rank a new job, without reading a long backlog in full on every queueing.
     */
    Backlog backlogOf(TenantId tenant, int most) {
        return jdbc.sql("""
                select count(*) as waiting, min(priority) as lowest from (
                    select s.priority from job_runs r
                    join scheduled_tasks s on s.task_name = r.task_name and s.task_instance = r.task_instance
                    where r.tenant_id = ? and r.finished_at is null
                    limit ?) backlog""")
                .params(tenant.value(), most)
                .query((rs, row) -> new Backlog(rs.getInt("waiting"), (Integer) rs.getObject("lowest", Integer.class)))
                .single();
    }

    /** The tenant a job was queued for, and the session it works on when it is a session's job. */
    record Queued(TenantId tenant, UUID sessionId) {}

    /**
     * The tenant a job was queued for; empty for a job of no tenant, or one whose record went with its sessions. A
     * job held back before ({@link #held}) is no longer: it is about to run.
     */
    Optional<Queued> tenantOf(String task, String instance) {
        return jdbc.sql("""
                        update job_runs set held_until = null
                        where task_name = ? and task_instance = ? and held_until is not null
                        returning tenant_id, session_id""").params(task, instance).query(JobRuns::queued).list().stream()
                // A row of no tenant reads as null, which findFirst would not take.
                .filter(Objects::nonNull)
                .findFirst()
                .or(() -> jdbc
                        .sql("select tenant_id, session_id from job_runs where task_name = ? and task_instance = ?")
                        .params(task, instance)
                        .query(JobRuns::queued)
                        .list()
                        .stream()
                        .filter(Objects::nonNull)
                        .findFirst());
    }

    private static Queued queued(ResultSet rs, int row) throws SQLException {
        UUID tenant = rs.getObject("tenant_id", UUID.class);
        return tenant == null ? null : new Queued(new TenantId(tenant), rs.getObject("session_id", UUID.class));
    }

    /** A job held back until {@code until} ({@link JobHold}). */
    void held(String task, String instance, Instant until) {
        jdbc.sql("update job_runs set held_until = ? where task_name = ? and task_instance = ?")
                .params(SqlTimes.timestamptz(until), task, instance)
                .update();
    }

    /** The tenant's held jobs, waiting and not picked by a runner, are due now. */
    void bringHeldForward(TenantId tenant) {
        jdbc.sql("""
                update scheduled_tasks s set execution_time = now()
                from job_runs r
                where r.tenant_id = ? and r.finished_at is null and r.held_until is not null
                  and s.task_name = r.task_name and s.task_instance = r.task_instance and not s.picked""").param(tenant.value()).update();
    }

    void forgetSessions(Collection<UUID> sessionIds) {
        if (!sessionIds.isEmpty()) {
            jdbc.sql("delete from job_runs where session_id = any(?)")
                    .param(sessionIds.toArray(UUID[]::new))
                    .update();
        }
    }

    /**
     * Records the job done; answers its session when none of the session's jobs is left unfinished (waiting,
     * running, waiting for a retry, or dead-lettered). The job's own finish is committed before the others are
     * counted, so of two last jobs finishing at once at least one sees the session done (both may).
     */
    Optional<SessionJobsDone> finished(String task, String instance) {
        List<SessionJobsDone> session = jdbc.sql("""
                update job_runs set finished_at = now() where task_name = ? and task_instance = ?
                returning tenant_id, session_id""")
                .params(task, instance)
                .query((rs, row) -> rs.getObject("session_id") == null || rs.getObject("tenant_id") == null
                        ? null
                        : new SessionJobsDone(
                                new TenantId(rs.getObject("tenant_id", UUID.class)),
                                rs.getObject("session_id", UUID.class)))
                .list();
        if (session.isEmpty() || session.getFirst() == null) {
            return Optional.empty();
        }
        long unfinished = jdbc.sql("select count(*) from job_runs where session_id = ? and finished_at is null")
                .param(session.getFirst().sessionId())
                .query(Long.class)
                .single();
        return unfinished == 0 ? Optional.of(session.getFirst()) : Optional.empty();
    }

    /** Jobs of the type in db-scheduler's table: waiting, running or waiting for a retry. */
    long scheduled(String task) {
        return jdbc.sql("select count(*) from scheduled_tasks where task_name = ?")
                .param(task)
                .query(Long.class)
                .single();
    }

    void failed(String task, String instance, Throwable cause) {
        jdbc.sql("""
                update job_runs set failures = failures + 1, last_error = ?
                where task_name = ? and task_instance = ?""").params(FailedJobs.describe(cause), task, instance).update();
    }

    /** A dead-lettered job run again by an operator. */
    void requeued(String task, String instance) {
        jdbc.sql("update job_runs set finished_at = null where task_name = ? and task_instance = ?")
                .params(task, instance)
                .update();
    }

    List<JobStatus> ofSession(UUID sessionId) {
        return jdbc.sql("""
                select r.task_name, r.task_instance, r.queued_at, r.finished_at, r.failures, r.last_error,
                       r.held_until, s.picked, s.execution_time, f.task_name is not null as dead, f.last_error as dead_error
                from job_runs r
                left join scheduled_tasks s on s.task_name = r.task_name and s.task_instance = r.task_instance
                left join failed_jobs f on f.task_name = r.task_name and f.task_instance = r.task_instance
                where r.session_id = ?
                order by r.queued_at, r.task_name, r.task_instance""").param(sessionId).query(JobRuns::status).list();
    }

    private static JobStatus status(ResultSet rs, int row) throws SQLException {
        Instant finished = SqlTimes.instant(rs, "finished_at");
        boolean dead = rs.getBoolean("dead");
        boolean scheduled = rs.getObject("picked") != null;
        JobStatus.State state;
        if (finished != null) {
            state = JobStatus.State.done;
        } else if (dead) {
            state = JobStatus.State.failed;
        } else if (scheduled && rs.getBoolean("picked")) {
            state = JobStatus.State.running;
        } else if (rs.getObject("held_until") != null) {
            state = JobStatus.State.deferred;
        } else {
            // Queued in the same transaction as its scheduler row, so a job neither finished nor dead is waiting.
            state = JobStatus.State.pending;
        }
        String lastError = dead ? rs.getString("dead_error") : rs.getString("last_error");
        Instant next = (state == JobStatus.State.pending || state == JobStatus.State.deferred) && scheduled
                ? SqlTimes.instant(rs, "execution_time")
                : null;
        return new JobStatus(
                rs.getString("task_name"),
                rs.getString("task_instance"),
                state,
                rs.getInt("failures"),
                lastError,
                SqlTimes.instant(rs, "queued_at"),
                next,
                finished);
    }
}
