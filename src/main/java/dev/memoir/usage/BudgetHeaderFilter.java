package dev.memoir.usage;

import java.io.IOException;
import java.util.Locale;
import java.util.Optional;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.memoir.tenant.TenantId;

/**
 * Tells a tenant's client, on every response, that the tenant's budget is past its warning threshold or used up:
 * {@code Memoir-Budget: warning; used=0.83; renews=2026-12-08T00:00:00Z}, as this instance last counted it (no
 * database read on the way). Runs after the API key's filter, whose tenant it reads.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 25)
class BudgetHeaderFilter extends OncePerRequestFilter {

    static final String HEADER = "Memoir-Budget";

    private final BudgetCounter counter;

    BudgetHeaderFilter(BudgetCounter counter) {
        this.counter = counter;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Optional<TenantId> tenant = TenantId.of(request);
        tenant.flatMap(id -> counter.lastSeen(id.value()))
                .filter(Budget.Standing::warning)
                .ifPresent(standing -> response.setHeader(HEADER, value(standing)));
        chain.doFilter(request, response);
    }

    private static String value(Budget.Standing standing) {
        return (standing.exhausted() ? "exhausted" : "warning") + "; used="
                + String.format(Locale.ROOT, "%.2f", standing.used()) + "; renews=" + standing.renewsAt();
    }
}
