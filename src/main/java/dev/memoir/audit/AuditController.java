package dev.memoir.audit;

import java.time.Instant;
import java.util.UUID;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Size;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.memoir.common.web.NotFoundException;
import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.tenant.OperatorAccess;
import dev.memoir.tenant.TenantDirectory;
import dev.memoir.tenant.TenantId;

@RestController
@Tag(name = "Audit")
class AuditController {

    private static final String TRAIL = " Each entry says who (the API key's id, the operator, a job), when, what was "
            + "done and to which ids; never memory text, and the user only as a keyed hash, so entries outlive the "
            + "user's erasure. Entries are hash-chained within seconds of being written (seq and hash null until "
            + "then); GET /audit/verify checks the chain.";

    private final AuditEntries entries;
    private final AuditSealer sealer;
    private final AuditChainCheck check;
    private final TenantDirectory tenants;

    AuditController(AuditEntries entries, AuditSealer sealer, AuditChainCheck check, TenantDirectory tenants) {
        this.entries = entries;
        this.sealer = sealer;
        this.check = check;
        this.tenants = tenants;
    }

    @GetMapping("/audit")
    @Operation(
            summary = "The tenant's audit trail, oldest first",
            description =
                    "What was done to the tenant's memory and what each reply and context request was shown." + TRAIL,
            responses = {
                @ApiResponse(responseCode = "200", description = "A page of entries"),
                @ApiResponse(responseCode = "400", description = "Invalid userId, action, time, limit or cursor")
            })
    AuditPage list(
            TenantId tenant,
            @Parameter(description = "Only this user's entries (found by the user id's keyed hash)")
                    @RequestParam(required = false)
                    @Size(min = 1, max = FieldConstraints.USER_ID)
                    String userId,
            @Parameter(description = "Only this action, as memory.created")
                    @RequestParam(required = false)
                    @Size(min = 1, max = FieldConstraints.AUDIT_ACTION)
                    String action,
            @Parameter(description = "Entries recorded at or after this instant") @RequestParam(required = false)
                    Instant from,
            @Parameter(description = "Entries recorded before this instant") @RequestParam(required = false) Instant to,
            @Parameter(description = "nextCursor of the previous page; omit for the first page")
                    @RequestParam(required = false)
                    @Size(max = FieldConstraints.CURSOR)
                    String cursor,
            @Parameter(description = "Entries per page, 1 to " + FieldConstraints.PAGE)
                    @RequestParam(defaultValue = "" + FieldConstraints.PAGE_DEFAULT)
                    @Min(1)
                    @Max(FieldConstraints.PAGE)
                    int limit) {
        return entries.list(tenant.value(), new AuditEntries.Filter(userId, action, from, to), cursor, limit);
    }

    @GetMapping("/audit/entries/{id}")
    @Operation(
            summary = "One audit entry, as an erasure's receipt names it",
            responses = {
                @ApiResponse(responseCode = "200", description = "The entry with its hashes"),
                @ApiResponse(responseCode = "404", description = "No such entry for this tenant (or purged)")
            })
    AuditEntryView entry(TenantId tenant, @PathVariable UUID id) {
        return entries.entry(tenant.value(), id).orElseThrow(() -> new NotFoundException("Audit entry", id));
    }

    @GetMapping("/audit/verify")
    @Operation(
            summary = "Check the tenant's audit trail for edited or removed entries",
            description = "Recomputes every kept entry's hashes and links from the first to the last. intact is "
                    + "false with the first fault found (content-changed, link-broken, seq-gap, head-mismatch). Keep "
                    + "headHash outside Memoir: a later answer whose chain does not lead through it shows a "
                    + "rewrite.",
            responses = {@ApiResponse(responseCode = "200", description = "Whether the trail is intact")})
    AuditVerification verify(TenantId tenant) {
        sealer.seal(tenant.value());
        return check.verify(tenant.value());
    }

    @GetMapping("/admin/tenants/{tenantId}/audit")
    @Tag(name = "Admin")
    @Operation(
            summary = "A tenant's audit trail, oldest first",
            description = "As the tenant reads it at GET /audit." + TRAIL,
            responses = {
                @ApiResponse(responseCode = "200", description = "A page of entries"),
                @ApiResponse(responseCode = "401", description = "Missing or wrong bootstrap key"),
                @ApiResponse(responseCode = "404", description = "No such tenant")
            })
    AuditPage tenantTrail(
            OperatorAccess operator,
            @PathVariable UUID tenantId,
            @Parameter(description = "Only this user's entries")
                    @RequestParam(required = false)
                    @Size(min = 1, max = FieldConstraints.USER_ID)
                    String userId,
            @Parameter(description = "Only this action")
                    @RequestParam(required = false)
                    @Size(min = 1, max = FieldConstraints.AUDIT_ACTION)
                    String action,
            @Parameter(description = "Entries recorded at or after this instant") @RequestParam(required = false)
                    Instant from,
            @Parameter(description = "Entries recorded before this instant") @RequestParam(required = false) Instant to,
            @Parameter(description = "nextCursor of the previous page")
                    @RequestParam(required = false)
                    @Size(max = FieldConstraints.CURSOR)
                    String cursor,
            @Parameter(description = "Entries per page, 1 to " + FieldConstraints.PAGE)
                    @RequestParam(defaultValue = "" + FieldConstraints.PAGE_DEFAULT)
                    @Min(1)
                    @Max(FieldConstraints.PAGE)
                    int limit) {
        return entries.list(existing(tenantId), new AuditEntries.Filter(userId, action, from, to), cursor, limit);
    }

    @GetMapping("/admin/tenants/{tenantId}/audit/verify")
    @Tag(name = "Admin")
    @Operation(
            summary = "Check a tenant's audit trail for edited or removed entries",
            responses = {
                @ApiResponse(responseCode = "200", description = "Whether the trail is intact"),
                @ApiResponse(responseCode = "401", description = "Missing or wrong bootstrap key"),
                @ApiResponse(responseCode = "404", description = "No such tenant")
            })
    AuditVerification verifyTenant(OperatorAccess operator, @PathVariable UUID tenantId) {
        UUID tenant = existing(tenantId);
        sealer.seal(tenant);
        return check.verify(tenant);
    }

    private UUID existing(UUID tenantId) {
        if (!tenants.exists(tenantId)) {
            throw new NotFoundException("Tenant", tenantId);
        }
        return tenantId;
    }
}
