package dev.memoir.usage;

import java.time.Instant;
import java.util.UUID;

import jakarta.validation.constraints.Size;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.tenant.OperatorAccess;
import dev.memoir.tenant.TenantId;

@RestController
@Tag(name = "Usage", description = "Model tokens and requests used, per step, user and model, with estimated cost")
class UsageController {

    private static final String FROM = "Start of the range (ISO-8601), rounded down to the hour; by default 30 days "
            + "before to (one day for interval=hour)";
    private static final String TO = "End of the range (ISO-8601, exclusive), rounded up to the hour; by default now";
    private static final String INTERVAL =
            "The length of each point of the series: day (at most 400 days) or hour (at most 31 days)";
    private static final String DESCRIPTION = "Every chat-model request (each attempt) and embedding batch made for "
            + "the tenant: by the reply and every memory job, self-reflection and supersession included. Tokens are "
            + "the model server's count where it reports one, else Memoir's (countedByService). Usage is written "
            + "every memoir.usage.flush-every, so the last few seconds may not be in it yet. estimatedCost is an "
            + "estimate from the operator's prices per model, not a bill.";

    private final Usage usage;

    UsageController(Usage usage) {
        this.usage = usage;
    }

    @GetMapping("/usage")
    @Operation(
            summary = "The tenant's model usage over a range, grouped by step, user, model or kind",
            description = DESCRIPTION,
            responses = {
                @ApiResponse(responseCode = "200", description = "The usage"),
                @ApiResponse(responseCode = "400", description = "A range that is empty or too long, or a bad value")
            })
    UsageReport tenantUsage(
            TenantId tenant,
            @Parameter(description = FROM, example = "2026-11-01T00:00:00Z") @RequestParam(required = false)
                    Instant from,
            @Parameter(description = TO, example = "2026-12-01T00:00:00Z") @RequestParam(required = false) Instant to,
            @Parameter(description = INTERVAL) @RequestParam(defaultValue = "day") UsageInterval interval,
            @Parameter(description = "What the groups are: step, user, model or kind")
                    @RequestParam(defaultValue = "step")
                    UsageGrouping groupBy,
            @Parameter(description = "Only this user's usage")
                    @RequestParam(required = false)
                    @Size(max = FieldConstraints.USER_ID)
                    String userId) {
        return usage.ofTenant(tenant, from, to, interval, groupBy, userId);
    }

    @GetMapping("/admin/usage")
    @Tag(name = "Admin")
    @Operation(
            summary = "Every tenant's model usage, or one tenant's, grouped by tenant, step, user, model or kind",
            description = DESCRIPTION,
            responses = {
                @ApiResponse(responseCode = "200", description = "The usage"),
                @ApiResponse(responseCode = "400", description = "A range that is empty or too long, or a bad value"),
                @ApiResponse(responseCode = "401", description = "Missing or wrong bootstrap key")
            })
    UsageReport operatorUsage(
            OperatorAccess operator,
            @Parameter(description = "Only this tenant's usage") @RequestParam(required = false) UUID tenantId,
            @Parameter(description = FROM, example = "2026-11-01T00:00:00Z") @RequestParam(required = false)
                    Instant from,
            @Parameter(description = TO, example = "2026-12-01T00:00:00Z") @RequestParam(required = false) Instant to,
            @Parameter(description = INTERVAL) @RequestParam(defaultValue = "day") UsageInterval interval,
            @Parameter(description = "What the groups are: tenant, step, user, model or kind")
                    @RequestParam(defaultValue = "tenant")
                    UsageGrouping groupBy,
            @Parameter(description = "Only this user's usage (with tenantId)")
                    @RequestParam(required = false)
                    @Size(max = FieldConstraints.USER_ID)
                    String userId) {
        return usage.ofEveryTenant(
                tenantId == null ? null : new TenantId(tenantId), from, to, interval, groupBy, userId);
    }
}
