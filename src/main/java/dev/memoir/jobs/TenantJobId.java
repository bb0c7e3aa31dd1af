package dev.memoir.jobs;

import java.util.UUID;

import dev.memoir.tenant.TenantId;

/**
 * The id of a job that works on one of a tenant's rows and carries the tenant in its id, {@code <tenantId>:<id>}, so
 * that its work can name the tenant in every lookup without a lookup of its own (a webhook delivery, a wait for a
 * session's memories). The one place that id is written and read.
 */
public record TenantJobId(TenantId tenant, UUID id) {

    public TenantJobId {
        if (tenant == null || id == null) {
            throw new IllegalArgumentException("A tenant's job id needs its tenant and its row's id");
        }
    }

    /** Reads a job instance's id as written by {@link #instanceId()}. */
    public static TenantJobId parse(String instanceId) {
        int colon = instanceId.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("Not a tenant's job id (<tenantId>:<id>): " + instanceId);
        }
        return new TenantJobId(
                new TenantId(UUID.fromString(instanceId.substring(0, colon))),
                UUID.fromString(instanceId.substring(colon + 1)));
    }

    /** The job instance's id in db-scheduler's table and the dead-letter list. */
    public String instanceId() {
        return tenant.value() + ":" + id;
    }
}
