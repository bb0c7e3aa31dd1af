package dev.memoir.usage;

import java.time.Clock;
import java.time.Instant;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.common.web.InvalidRequestException;
import dev.memoir.tenant.TenantId;

/** What other features need of usage: a tenant's report (the MCP tool), and a user's usage made anonymous on erasure. */
@Service
public class Usage {

    private final UsageReports reports;
    private final UsageErasure erasure;
    private final Clock clock;

    Usage(UsageReports reports, UsageErasure erasure) {
        this.reports = reports;
        this.erasure = erasure;
        this.clock = Clock.systemUTC();
    }

    /**
     * The tenant's usage over {@code [from, to)} (each rounded to the hour; to defaults to now, from to 30 days, or
     * for hours one day, before to), grouped by step, user, model or kind; of one user when {@code userId} is given.
     */
    public UsageReport ofTenant(
            TenantId tenant, Instant from, Instant to, UsageInterval interval, UsageGrouping groupBy, String userId) {
        if (groupBy == UsageGrouping.TENANT) {
            throw new InvalidRequestException("groupBy", "tenant is the operator's grouping (GET /admin/usage)");
        }
        return reports.report(
                new UsageReports.Query(tenant.value(), from, to, interval, groupBy, userId), clock.instant());
    }

    /** Every tenant's usage, or one tenant's: the operator's report. */
    UsageReport ofEveryTenant(
            TenantId tenant, Instant from, Instant to, UsageInterval interval, UsageGrouping groupBy, String userId) {
        return reports.report(
                new UsageReports.Query(tenant == null ? null : tenant.value(), from, to, interval, groupBy, userId),
                clock.instant());
    }

    /**
     * Part of erasing a user: their usage stays in the tenant's sums, but as usage of no one user, and their
     * requests' rows go.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void forgetUser(TenantId tenant, String userId) {
        erasure.forget(tenant.value(), userId);
    }
}
