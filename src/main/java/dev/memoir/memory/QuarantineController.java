package dev.memoir.memory;

import java.util.Map;
import java.util.UUID;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Size;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.memoir.common.web.InvalidRequestException;
import dev.memoir.common.web.NotFoundException;
import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.common.wire.WireNames;
import dev.memoir.memory.api.MemoryView;
import dev.memoir.memory.quarantine.PoisoningPolicy;
import dev.memoir.tenant.OperatorAccess;
import dev.memoir.tenant.TenantDirectory;
import dev.memoir.tenant.TenantId;

@RestController
@Tag(name = "Memory")
class QuarantineController {

    private static final String POLICY = " Policies: allow (read as any memory), flag (read, and shown with "
            + "screening.state flagged and the signs found) or quarantine (kept and listed here, never read into a "
            + "reply or a search until released). Signs: override phrases, chat-template role tags, tool-call JSON, "
            + "hidden Unicode tag or bidirectional characters, long encoded blobs (docs/trust.md).";

    private final MemoryQuarantine quarantine;
    private final TenantDirectory tenants;

    QuarantineController(MemoryQuarantine quarantine, TenantDirectory tenants) {
        this.quarantine = quarantine;
        this.tenants = tenants;
    }

    @GetMapping("/memory/quarantine")
    @Operation(
            summary = "Memories held back because their text reads as instructions to an assistant",
            description = "Oldest first, cursor-paged; each with screening.signs." + POLICY,
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(responseCode = "400", description = "Invalid userId, limit or cursor")
            })
    MemoryList quarantined(
            TenantId tenant,
            @Parameter(description = "Only this user's; omit for the whole tenant's")
                    @RequestParam(required = false)
                    @Size(min = 1, max = FieldConstraints.USER_ID)
                    String userId,
            @Parameter(description = "nextCursor of the previous page")
                    @RequestParam(required = false)
                    @Size(max = FieldConstraints.CURSOR)
                    String cursor,
            @Parameter(description = "Memories per page, 1 to " + FieldConstraints.MEMORY_PAGE)
                    @RequestParam(defaultValue = "" + FieldConstraints.MEMORY_PAGE_DEFAULT)
                    @Min(1)
                    @Max(FieldConstraints.MEMORY_PAGE)
                    int limit) {
        return quarantine.quarantined(tenant, userId, cursor, limit);
    }

    @PostMapping("/memory/{id}/release")
    @Operation(
            summary = "Let a quarantined memory be read",
            description = "From now on it is read into replies and searches like any memory; it keeps its signs with "
                    + "screening.state released. A new version of its text is screened again.",
            responses = {
                @ApiResponse(responseCode = "200", description = "The released memory"),
                @ApiResponse(responseCode = "404", description = "No such memory for this tenant"),
                @ApiResponse(responseCode = "409", description = "memory-not-quarantined")
            })
    MemoryView release(TenantId tenant, @PathVariable UUID id) {
        return quarantine.release(tenant, id);
    }

    @PostMapping("/admin/tenants/{tenantId}/memory/{id}/release")
    @Tag(name = "Admin")
    @Operation(
            summary = "Let a tenant's quarantined memory be read",
            responses = {
                @ApiResponse(responseCode = "200", description = "The released memory"),
                @ApiResponse(responseCode = "401", description = "Missing or wrong bootstrap key"),
                @ApiResponse(responseCode = "404", description = "No such tenant or memory"),
                @ApiResponse(responseCode = "409", description = "memory-not-quarantined")
            })
    MemoryView releaseAsOperator(OperatorAccess operator, @PathVariable UUID tenantId, @PathVariable UUID id) {
        if (!tenants.exists(tenantId)) {
            throw new NotFoundException("Tenant", tenantId);
        }
        return quarantine.release(new TenantId(tenantId), id);
    }

    @GetMapping("/memory/quarantine/policy")
    @Operation(
            summary = "The tenant's poisoning policy",
            description = "What applies now, and whether the tenant chose it." + POLICY)
    MemoryQuarantine.PolicyView policy(TenantId tenant) {
        return quarantine.policy(tenant);
    }

    @PutMapping("/memory/quarantine/policy")
    @Operation(
            summary = "Set the tenant's poisoning policy",
            description = "Applies to memory written from now on; what is stored keeps its state (release it, or "
                    + "edit it, which screens it again). {\"policy\": null} gives it back to the deployment's "
                    + "memoir.quarantine.policy." + POLICY,
            responses = {
                @ApiResponse(responseCode = "200", description = "The policy now"),
                @ApiResponse(responseCode = "400", description = "An unknown policy")
            })
    MemoryQuarantine.PolicyView setPolicy(
            TenantId tenant,
            @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content = @Content(schema = @Schema(implementation = PolicyChange.class)))
                    @RequestBody
                    Map<String, Object> change) {
        // Read by hand: a body that names no policy (a misspelt field) must not reset the policy to the default.
        if (change == null || !change.containsKey("policy")) {
            throw new InvalidRequestException(
                    "policy", "name the policy: allow, flag or quarantine; null for the default");
        }
        Object policy = change.get("policy");
        if (policy != null && !(policy instanceof String)) {
            throw new InvalidRequestException("policy", "must be allow, flag or quarantine, or null for the default");
        }
        try {
            return quarantine.setPolicy(tenant, policy == null ? null : PoisoningPolicy.fromWireName((String) policy));
        } catch (WireNames.UnknownValueException e) {
            throw new InvalidRequestException("policy", e.getMessage());
        }
    }

    @Schema(description = "The poisoning policy to apply: allow, flag or quarantine; null for the deployment's")
    record PolicyChange(
            @Schema(nullable = true, example = "flag") PoisoningPolicy policy) {}
}
