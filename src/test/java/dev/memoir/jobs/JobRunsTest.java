package dev.memoir.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import dev.memoir.support.IntegrationTest;
import dev.memoir.tenant.TenantId;

/**
 * A job's run record: the tenant it was queued for, none for a job of no tenant (which is then skipped, not failed),
 * and a job held back by its tenant's budget no longer held once it runs.
 */
class JobRunsTest extends IntegrationTest {

    @Autowired
    JobRuns runs;

    @Test
    void aJobOfNoTenantHasNoneOnRecordWhetherOrNotItWasHeld() {
        String id = "no-tenant-" + UUID.randomUUID();
        runs.queued("test-job", id, null, null);
        assertThat(runs.tenantOf("test-job", id)).isEmpty();

        runs.held("test-job", id, Instant.now().plusSeconds(60));
        assertThat(runs.tenantOf("test-job", id)).isEmpty();
    }

    @Test
    void aHeldJobIsNoLongerHeldOnceItRuns() {
        String id = "held-" + UUID.randomUUID();
        TenantId tenant = new TenantId(UUID.randomUUID());
        UUID session = UUID.randomUUID();
        runs.queued("test-job", id, tenant, session);
        runs.held("test-job", id, Instant.now().plusSeconds(60));
        assertThat(runs.ofSession(session))
                .singleElement()
                .satisfies(job -> assertThat(job.state()).isEqualTo(JobStatus.State.deferred));

        assertThat(runs.tenantOf("test-job", id)).contains(new JobRuns.Queued(tenant, session));
        assertThat(runs.ofSession(session))
                .singleElement()
                .satisfies(job -> assertThat(job.state()).isEqualTo(JobStatus.State.pending));
    }
}
