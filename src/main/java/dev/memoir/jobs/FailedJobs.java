package dev.memoir.jobs;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import dev.memoir.common.web.ApiException;

/**
 * The dead-letter list of background jobs: a job that exhausts its retries is recorded here rather than dropped,
 * and counted by the gauge {@code memoir.jobs.failed}.
 */
@Repository
class FailedJobs {

    private static final int MAX_ERROR_LENGTH = 500;
    private static final RowMapper<FailedJob> ROW = (rs, row) -> new FailedJob(
            rs.getString(1),
            rs.getString(2),
            rs.getInt(3),
            rs.getString(4),
            rs.getTimestamp(5).toInstant());

    private final JdbcClient jdbc;

    FailedJobs(JdbcClient jdbc, MeterRegistry meters) {
        this.jdbc = jdbc;
        Gauge.builder("memoir.jobs.failed", this, FailedJobs::count)
                .description("Background jobs that failed on every retry and wait for an operator")
                .register(meters);
    }

    void record(String task, String instance, int failures, Throwable cause, Instant failedAt) {
        jdbc.sql("""
                insert into failed_jobs (task_name, task_instance, failures, last_error, failed_at)
                values (?, ?, ?, ?, ?)
                on conflict (task_name, task_instance) do update
                    set failures = excluded.failures, last_error = excluded.last_error, failed_at = excluded.failed_at
                """)
                .params(task, instance, failures, describe(cause), Timestamp.from(failedAt))
                .update();
    }

    /** Newest failure first; after a page's last job when one is given (null for the first page). */
    List<FailedJob> list(FailedJob after, int limit) {
        if (after == null) {
            return jdbc.sql("""
                    select task_name, task_instance, failures, last_error, failed_at from failed_jobs
                    order by failed_at desc, task_name desc, task_instance desc limit ?""").param(limit).query(ROW).list();
        }
        return jdbc.sql("""
                select task_name, task_instance, failures, last_error, failed_at from failed_jobs
                where (failed_at, task_name, task_instance) < (?, ?, ?)
                order by failed_at desc, task_name desc, task_instance desc limit ?""")
                .params(Timestamp.from(after.failedAt()), after.task(), after.instance(), limit)
                .query(ROW)
                .list();
    }

    Optional<FailedJob> remove(String task, String instance) {
        return jdbc.sql("""
                delete from failed_jobs where task_name = ? and task_instance = ?
                returning task_name, task_instance, failures, last_error, failed_at""").params(task, instance).query(ROW).list().stream().findFirst();
    }

    private double count() {
        return jdbc.sql("select count(*) from failed_jobs").query(Long.class).single();
    }

    /**
     * The failure's type and the first line of its message. Our own exceptions never carry user content, but a
     * database error's detail lines can quote a row ("Failing row contains ..."), so only the first line is kept.
     */
    static String describe(Throwable cause) {
        if (cause == null) {
            return "unknown";
        }
        String message = cause.getMessage() == null
                ? ""
                : cause.getMessage().lines().findFirst().orElse("");
        String code = cause instanceof ApiException api ? api.code() + ": " : "";
        String text = cause.getClass().getSimpleName() + ": " + code + message;
        return text.length() <= MAX_ERROR_LENGTH ? text : text.substring(0, MAX_ERROR_LENGTH);
    }
}
