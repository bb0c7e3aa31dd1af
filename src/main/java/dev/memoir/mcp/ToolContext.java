package dev.memoir.mcp;

import io.modelcontextprotocol.common.McpTransportContext;

import org.springframework.http.HttpStatus;

import dev.memoir.common.web.ApiException;
import dev.memoir.tenant.TenantId;

/** What every MCP tool reads from its call's transport context: the tenant of the request's API key. */
final class ToolContext {

    /** The transport context key under which the request's tenant travels. */
    static final String TENANT = TenantId.class.getName();

    static final String USER_ID = "The end user whose memory this is, as your application identifies them";

    private ToolContext() {}

    /** The request's tenant, which the transport put into the context (see {@link McpServerConfig}). */
    static TenantId tenant(McpTransportContext context) {
        if (context.get(TENANT) instanceof TenantId tenant) {
            return tenant;
        }
        // The API-key filter lets no request without a tenant reach /mcp; this only guards against a change.
        throw new NoTenantException();
    }

    static final class NoTenantException extends ApiException {

        NoTenantException() {
            super(HttpStatus.UNAUTHORIZED, "unauthorized", "no tenant API key on this request");
        }
    }
}
