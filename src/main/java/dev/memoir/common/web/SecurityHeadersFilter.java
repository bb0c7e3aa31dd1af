package dev.memoir.common.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Security headers on every response, refusals included. API answers carry users' memories and new API keys:
 * no cache may keep them, no browser may sniff them into something executable, and no page may frame them.
 * The documentation pages and the inspector are HTML and get policies that let them load only the service's own
 * assets.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class SecurityHeadersFilter extends OncePerRequestFilter {

    static final String API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
    static final String PAGE_POLICY = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            + "img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; "
            + "frame-ancestors 'none'; base-uri 'self'; form-action 'self'";
    /**
     * The inspector shows users' memories, which are user content: only its own scripts and style sheets run,
     * never inline ones, so text that slipped into markup could not execute; it talks only to the service.
     */
    static final String INSPECTOR_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self'; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; "
            + "form-action 'none'";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Referrer-Policy", "no-referrer");
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (InspectorPage.isPagePath(path)) {
            response.setHeader("Content-Security-Policy", INSPECTOR_POLICY);
            // Revalidated on every load, so that a new release's page is never mixed with cached old modules.
            response.setHeader(HttpHeaders.CACHE_CONTROL, "no-cache");
            chain.doFilter(request, response);
            return;
        }
        boolean page = path.startsWith("/swagger-ui");
        response.setHeader("Content-Security-Policy", page ? PAGE_POLICY : API_POLICY);
        if (!page) {
            response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        }
        chain.doFilter(request, response);
    }
}
