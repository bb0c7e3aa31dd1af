package dev.memoir.tenant;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

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
    @Operation(summary = "Create a tenant and its first API key", responses = {
            @ApiResponse(responseCode = "201", description = "Created; the key is returned once"),
            @ApiResponse(responseCode = "400", description = "Invalid name"),
            @ApiResponse(responseCode = "401", description = "Missing or wrong bootstrap key")})
    TenantCreated create(OperatorAccess operator, @Valid @RequestBody TenantCreate request) {
        return tenantService.create(request.name());
    }
}
