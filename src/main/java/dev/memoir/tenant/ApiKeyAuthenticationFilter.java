package dev.memoir.tenant;

import java.io.IOException;
import java.security.Principal;
import java.util.Optional;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.memoir.common.audit.AuditActor;
import dev.memoir.common.usage.UsageScope;
import dev.memoir.common.web.InspectorPage;
import dev.memoir.common.web.ProblemWriter;
import dev.memoir.common.web.Problems;

/**
 * Authenticates every API request by its bearer key. Tenant keys reach the API; the bootstrap key reaches only
 * /admin and /actuator. Documentation, health and the inspector page's files stay open. A tenant's writing
 * requests then wait their turn in {@link WriteQueueFilter}.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
class ApiKeyAuthenticationFilter extends OncePerRequestFilter {

    static final String TENANT_ATTRIBUTE = TenantId.class.getName();

    private final TenantService tenantService;
    private final SecurityProperties properties;
    private final ProblemWriter problemWriter;

    ApiKeyAuthenticationFilter(
            TenantService tenantService, SecurityProperties properties, ProblemWriter problemWriter) {
        this.tenantService = tenantService;
        this.properties = properties;
        this.problemWriter = problemWriter;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        // Open paths are matched on the raw path exactly: an encoded or dotted variant of an open path is not
        // open, it is authenticated like any other request.
        String path = pathWithinApplication(request);
        // The inspector's own files hold no data: the page asks for the key and sends it with each API call.
        if (InspectorPage.isPagePath(path)) {
            return request.getMethod().equals("GET") || request.getMethod().equals("HEAD");
        }
        if (!path.equals(OperatorPaths.canonical(path))) {
            return false;
        }
        return path.startsWith("/v3/api-docs") || path.startsWith("/swagger-ui") || path.equals("/error");
    }

    /** Health is open to all; its components and details only to the operator (show-details when-authorized). */
    private static boolean isHealthPath(String path) {
        return path.equals(OperatorPaths.canonical(path))
                && (path.equals("/actuator/health") || path.startsWith("/actuator/health/"));
    }

    private static String pathWithinApplication(HttpServletRequest request) {
        return request.getRequestURI().substring(request.getContextPath().length());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Optional<String> key = bearerKey(request);
        if (isHealthPath(pathWithinApplication(request))) {
            boolean operator = key.isPresent()
                    && properties.hasBootstrapKey()
                    && ApiKeys.sameKey(key.get(), properties.bootstrapKey());
            chain.doFilter(operator ? new OperatorRequest(request) : request, response);
            return;
        }
        if (key.isEmpty()) {
            reject(request, response, "Missing API key: send 'Authorization: Bearer <key>'");
            return;
        }
        if (OperatorPaths.isOperatorPath(pathWithinApplication(request))) {
            // Tenant management and service-wide metrics belong to the operator, not to any tenant.
            if (properties.hasBootstrapKey() && ApiKeys.sameKey(key.get(), properties.bootstrapKey())) {
                request.setAttribute(OperatorAccess.ATTRIBUTE, new OperatorAccess());
                try (AuditActor actor = AuditActor.open(AuditActor.OPERATOR)) {
                    chain.doFilter(request, response);
                }
            } else {
                reject(request, response, "The /admin and /actuator endpoints need the bootstrap key");
            }
            return;
        }
        Optional<TenantService.Authenticated> authenticated = tenantService.authenticate(key.get());
        if (authenticated.isEmpty()) {
            reject(request, response, "Unknown or revoked API key");
            return;
        }
        // The write queue (WriteQueueFilter, next in the chain) and the controllers read the tenant from here.
        TenantId tenant = authenticated.get().tenant();
        request.setAttribute(TENANT_ATTRIBUTE, tenant);
        // The model requests made while the request is handled are the tenant's (usage); deeper code narrows the
        // scope to a user and session where it knows them.
        try (UsageScope scope = UsageScope.open(tenant.value(), null, null);
                AuditActor actor =
                        AuditActor.open(AuditActor.key(authenticated.get().keyId()))) {
            chain.doFilter(request, response);
        }
    }

    /** A request made with the bootstrap key, as the actuator sees it: an authenticated operator. */
    private static final class OperatorRequest extends HttpServletRequestWrapper {

        private static final Principal OPERATOR = () -> "operator";

        OperatorRequest(HttpServletRequest request) {
            super(request);
        }

        @Override
        public Principal getUserPrincipal() {
            return OPERATOR;
        }

        @Override
        public boolean isUserInRole(String role) {
            return true;
        }
    }

    private static Optional<String> bearerKey(HttpServletRequest request) {
        String header = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        String key = header.substring(7).strip();
        return key.isEmpty() ? Optional.empty() : Optional.of(key);
    }

    private void reject(HttpServletRequest request, HttpServletResponse response, String detail) throws IOException {
        response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
        problemWriter.write(request, response, Problems.of(HttpStatus.UNAUTHORIZED, "unauthorized", detail));
    }
}
