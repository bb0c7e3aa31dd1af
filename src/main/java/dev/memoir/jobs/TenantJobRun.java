package dev.memoir.jobs;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.memoir.common.usage.BudgetExhaustedException;
import dev.memoir.common.usage.UsageScope;
import dev.memoir.tenant.TenantId;

/**
 * One run of a {@linkplain Jobs#tenantTask tenant's job}: finds the tenant it was queued for, asks each
 * {@link JobHold} whether it should wait, and otherwise does its work for whom its model requests are (usage).
 */
final class TenantJobRun {

    private static final Logger log = LoggerFactory.getLogger(TenantJobRun.class);

    private final JobRuns runs;
    private final List<JobHold> holds;
    private final BiConsumer<TenantId, String> work;

    TenantJobRun(JobRuns runs, List<JobHold> holds, BiConsumer<TenantId, String> work) {
        this.runs = runs;
        this.holds = holds;
        this.work = work;
    }

    /** Runs the job, or answers when to look again: it is held back. */
    Optional<Instant> runOrHold(String task, String id) {
        Optional<JobRuns.Queued> queued = runs.tenantOf(task, id);
        if (queued.isEmpty()) {
            log.info("Job {} {} has no tenant on record: nothing to do", task, id);
            return Optional.empty();
        }
        TenantId tenant = queued.get().tenant();
        for (JobHold hold : holds) {
            Optional<Instant> until = hold.heldUntil(tenant, queued.get().sessionId());
            if (until.isPresent()) {
                return until;
            }
        }
        // Whom the job's model requests are for: its tenant, and its session's user, found from the session when
        // the usage is written.
        try (UsageScope scope =
                UsageScope.openJob(tenant.value(), null, queued.get().sessionId())) {
            work.accept(tenant, id);
            return Optional.empty();
        } catch (BudgetExhaustedException e) {
            return Optional.of(e.lookAgainAt());
        }
    }
}
