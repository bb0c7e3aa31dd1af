package dev.memoir.jobs;

import com.github.kagkarlsson.scheduler.task.Priority;

/** How tenants take turns: the priority of a tenant's job by its own tenant's backlog ({@link Jobs#queue}). */
final class TenantTurns {

    /**
     * How many of its tenant's waiting jobs lower a job's priority at most: beyond a backlog this long the tenant's
     * jobs simply queue in order, and the priority stays far inside db-scheduler's column (a smallint).
     */
    static final int MOST_BEHIND = 1000;

    /**
     * The priority of a tenant's job queued behind {@code ahead} jobs of its own tenant, the lowest of which has
     * {@code lowest} (null when none waits).
     */
    static int priorityBehind(int ahead, Integer lowest) {
        int byBacklog = Priority.MEDIUM - Math.min(ahead, MOST_BEHIND);
        return lowest == null ? byBacklog : Math.max(Priority.MEDIUM - MOST_BEHIND, Math.min(byBacklog, lowest));
    }

    private TenantTurns() {}
}
