package dev.memoir.retention;

import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import com.fasterxml.jackson.annotation.JsonProperty;

import dev.memoir.common.web.InvalidRequestException;
import dev.memoir.common.web.NotFoundException;
import dev.memoir.memory.RetentionRule;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.tenant.OperatorAccess;
import dev.memoir.tenant.TenantDirectory;

@RestController
@RequestMapping("/admin/tenants/{tenantId}/retention")
@Tag(name = "Admin", description = "Tenants and their keys; needs the bootstrap key (memoir.security.bootstrap-key)")
class RetentionController {

    @Schema(description = "How long one kind of a tenant's memories is kept")
    record KindRetention(
            @Schema(example = "history") MemoryKind kind,

            @Schema(
                    description = "ISO-8601 duration from when Memoir wrote the memory; null: kept for good",
                    example = "P365D")
            Duration keepFor,

            @Schema(
                    description = "tenant: the operator's rule for this tenant; default: memoir.retention.<kind>",
                    allowableValues = {"tenant", "default"})
            String source) {}

    @Schema(description = "A tenant's retention, kind by kind")
    record TenantRetention(UUID tenantId, List<KindRetention> kinds) {}

    @Schema(description = "A tenant's own retention of one memory kind")
    record RetentionUpdate(
            @Schema(
                    description = "ISO-8601 duration, at least a minute; null keeps this tenant's "
                            + "memories of the kind for good. Required: an empty body is refused, not read as null",
                    example = "P30D",
                    requiredMode = Schema.RequiredMode.REQUIRED)
            @JsonProperty(required = true)
            Duration keepFor) {}

    private final TenantRetentions rules;
    private final RetentionProperties properties;
    private final TenantDirectory tenants;

    RetentionController(TenantRetentions rules, RetentionProperties properties, TenantDirectory tenants) {
        this.rules = rules;
        this.properties = properties;
        this.tenants = tenants;
    }

    @GetMapping
    @Operation(
            summary = "Show how long each kind of a tenant's memories is kept",
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(responseCode = "401", description = "Missing or wrong bootstrap key"),
                @ApiResponse(responseCode = "404", description = "No such tenant")
            })
    TenantRetention get(OperatorAccess operator, @PathVariable UUID tenantId) {
        requireTenant(tenantId);
        Map<MemoryKind, Duration> defaults = properties.byKind();
        Map<MemoryKind, RetentionRule> own = new EnumMap<>(MemoryKind.class);
        rules.of(tenantId).forEach(rule -> own.put(rule.kind(), rule));
        return new TenantRetention(
                tenantId,
                Arrays.stream(MemoryKind.values())
                        .map(kind -> own.containsKey(kind)
                                ? new KindRetention(kind, own.get(kind).keepFor(), "tenant")
                                : new KindRetention(kind, defaults.get(kind), "default"))
                        .toList());
    }

    @PutMapping("/{kind}")
    @Operation(
            summary = "Set a tenant's own retention of one memory kind",
            description = "Overrides memoir.retention.<kind> for this tenant: its memories of the kind are deleted "
                    + "by the retention job once older than keepFor (counted from when Memoir wrote them); null "
                    + "keeps them for good.",
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(responseCode = "400", description = "Unknown kind, or keepFor under a minute"),
                @ApiResponse(responseCode = "401", description = "Missing or wrong bootstrap key"),
                @ApiResponse(responseCode = "404", description = "No such tenant")
            })
    TenantRetention put(
            OperatorAccess operator,
            @PathVariable UUID tenantId,
            @Parameter(description = "The memory kind", example = "history") @PathVariable MemoryKind kind,
            @RequestBody RetentionUpdate update) {
        requireTenant(tenantId);
        if (update.keepFor() != null && update.keepFor().compareTo(Duration.ofMinutes(1)) < 0) {
            throw new InvalidRequestException("keepFor", "must be at least a minute, or null to keep for good");
        }
        rules.put(tenantId, kind, update.keepFor());
        return get(operator, tenantId);
    }

    @DeleteMapping("/{kind}")
    @ResponseStatus(HttpStatus.OK)
    @Operation(
            summary = "Remove a tenant's own retention of one memory kind: the deployment's applies again",
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(responseCode = "401", description = "Missing or wrong bootstrap key"),
                @ApiResponse(responseCode = "404", description = "No such tenant")
            })
    TenantRetention remove(OperatorAccess operator, @PathVariable UUID tenantId, @PathVariable MemoryKind kind) {
        requireTenant(tenantId);
        rules.remove(tenantId, kind);
        return get(operator, tenantId);
    }

    private void requireTenant(UUID tenantId) {
        if (!tenants.exists(tenantId)) {
            throw new NotFoundException("Tenant", tenantId);
        }
    }
}
