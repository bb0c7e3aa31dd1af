package dev.memoir.tenant;

import java.util.Optional;
import java.util.UUID;

import jakarta.servlet.ServletRequest;

/**
 * The tenant an authenticated request acts for. Controllers take it as a parameter; every query that reads
 * user data is scoped by it.
 */
public record TenantId(UUID value) {

    /**
     * The tenant of an authenticated request (its API key's), for handlers that cannot declare a TenantId parameter
     * (the MCP server's transport); empty on a request that has none.
     */
    public static Optional<TenantId> of(ServletRequest request) {
        return request.getAttribute(ApiKeyAuthenticationFilter.TENANT_ATTRIBUTE) instanceof TenantId tenant
                ? Optional.of(tenant)
                : Optional.empty();
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
