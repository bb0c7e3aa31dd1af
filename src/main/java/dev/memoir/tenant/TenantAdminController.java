package dev.memoir.tenant;

import java.net.URI;
import java.util.UUID;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import dev.memoir.common.wire.FieldConstraints;

@RestController
@RequestMapping("/admin/tenants")
@Tag(name = "Admin", description = "Tenants and their keys; needs the bootstrap key (memoir.security.bootstrap-key)")
class TenantAdminController {

    private final TenantService tenantService;

    TenantAdminController(TenantService tenantService) {
        this.tenantService = tenantService;
    }

    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(
            summary = "Create a tenant and its first API key",
            responses = {
                @ApiResponse(responseCode = "201", description = "Created; the key is returned once"),
                @ApiResponse(responseCode = "400", description = "Invalid name"),
                @ApiResponse(responseCode = "401", description = "Missing or wrong bootstrap key")
            })
    TenantCreated create(OperatorAccess operator, @Valid @RequestBody TenantCreate request) {
        return tenantService.create(request.name());
    }

    @GetMapping
    @Operation(
            summary = "List the tenants, oldest first, with their number of active keys",
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(responseCode = "400", description = "Invalid limit or cursor"),
                @ApiResponse(responseCode = "401", description = "Missing or wrong bootstrap key")
            })
    TenantPage list(
            OperatorAccess operator,
            @Parameter(description = "nextCursor of the previous page; omit for the first page")
                    @RequestParam(required = false)
                    String cursor,
            @Parameter(description = "1 to " + FieldConstraints.PAGE)
                    @RequestParam(defaultValue = "" + FieldConstraints.PAGE_DEFAULT)
                    @Min(1)
                    @Max(FieldConstraints.PAGE)
                    int limit) {
        return tenantService.list(cursor, limit);
    }

    @PostMapping("/{tenantId}/keys")
    @Operation(
            summary = "Create another API key for a tenant",
            description = "To replace a key without downtime: create a second key, move the clients to it, then "
                    + "revoke the first. The new key is shown in this answer only.",
            responses = {
                @ApiResponse(responseCode = "201", description = "Created; the key is returned once"),
                @ApiResponse(responseCode = "401", description = "Missing or wrong bootstrap key"),
                @ApiResponse(responseCode = "404", description = "No such tenant")
            })
    ResponseEntity<ApiKeyCreated> createKey(OperatorAccess operator, @PathVariable UUID tenantId) {
        ApiKeyCreated created = tenantService.createKey(tenantId);
        return ResponseEntity.created(URI.create("/admin/tenants/" + tenantId + "/keys/" + created.id()))
                .body(created);
    }

    @GetMapping("/{tenantId}/keys")
    @Operation(
            summary = "List a tenant's API keys: prefix and dates only, never the keys",
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(responseCode = "401", description = "Missing or wrong bootstrap key"),
                @ApiResponse(responseCode = "404", description = "No such tenant")
            })
    ApiKeyList keys(OperatorAccess operator, @PathVariable UUID tenantId) {
        return tenantService.keys(tenantId);
    }

    @PostMapping("/{tenantId}/keys/{keyId}/rotate")
    @Operation(
            summary = "Replace an API key: a new key is issued and the old one is refused at once",
            responses = {
                @ApiResponse(responseCode = "201", description = "The new key, returned once"),
                @ApiResponse(responseCode = "401", description = "Missing or wrong bootstrap key"),
                @ApiResponse(responseCode = "404", description = "No such key for this tenant"),
                @ApiResponse(responseCode = "409", description = "The key is already revoked")
            })
    ResponseEntity<ApiKeyCreated> rotateKey(
            OperatorAccess operator, @PathVariable UUID tenantId, @PathVariable UUID keyId) {
        ApiKeyCreated created = tenantService.rotateKey(tenantId, keyId);
        return ResponseEntity.created(URI.create("/admin/tenants/" + tenantId + "/keys/" + created.id()))
                .body(created);
    }

    @DeleteMapping("/{tenantId}/keys/{keyId}")
    @Operation(
            summary = "Revoke an API key: every request with it is refused (401) from now on",
            description = "Revoking a revoked key again changes nothing.",
            responses = {
                @ApiResponse(responseCode = "200", description = "The revoked key"),
                @ApiResponse(responseCode = "401", description = "Missing or wrong bootstrap key"),
                @ApiResponse(responseCode = "404", description = "No such key for this tenant")
            })
    ApiKeyView revokeKey(OperatorAccess operator, @PathVariable UUID tenantId, @PathVariable UUID keyId) {
        return tenantService.revokeKey(tenantId, keyId);
    }
}
