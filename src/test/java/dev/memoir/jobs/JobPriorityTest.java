package dev.memoir.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.github.kagkarlsson.scheduler.task.Priority;

/** A tenant's job is ranked behind its own tenant's waiting jobs, never ahead of them, within the scheduler's column. */
class JobPriorityTest {

    @Test
    void aJobIsLoweredByOneForEachJobOfItsTenantWaiting() {
        assertThat(TenantTurns.priorityBehind(0, null)).isEqualTo(Priority.MEDIUM);
        assertThat(TenantTurns.priorityBehind(3, null)).isEqualTo(Priority.MEDIUM - 3);
    }

    @Test
    void aJobIsNeverRankedAboveAWaitingJobOfItsOwnTenant() {
        // The backlog shrank from 9 to 2 since the lowest waiting job was queued at MEDIUM - 9.
        assertThat(TenantTurns.priorityBehind(2, Priority.MEDIUM - 9)).isEqualTo(Priority.MEDIUM - 9);
    }

    @Test
    void howeverLongTheBacklogThePriorityFitsTheSchedulersSmallintColumn() {
        assertThat(TenantTurns.priorityBehind(1_000_000, null))
                .isEqualTo(Priority.MEDIUM - TenantTurns.MOST_BEHIND)
                .isGreaterThan(Short.MIN_VALUE);
        assertThat(TenantTurns.priorityBehind(5, -30_000)).isEqualTo(Priority.MEDIUM - TenantTurns.MOST_BEHIND);
    }
}
