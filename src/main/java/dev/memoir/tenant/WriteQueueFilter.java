package dev.memoir.tenant;

import java.io.IOException;
import java.util.Optional;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.memoir.common.web.ProblemWriter;
import dev.memoir.common.web.Problems;

/**
 * Makes a tenant's writing request wait its turn in a queue fair to every tenant ({@link FairWriteQueue}); one that
 * waits too long is answered 429 with {@code Retry-After}. It runs right after {@link ApiKeyAuthenticationFilter},
 * whose tenant it queues under: requests without one (open paths, health, the operator's) are not queued.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 30)
class WriteQueueFilter extends OncePerRequestFilter {

    private final FairWriteQueue writes;
    private final ProblemWriter problemWriter;

    WriteQueueFilter(FairWriteQueue writes, ProblemWriter problemWriter) {
        this.writes = writes;
        this.problemWriter = problemWriter;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Optional<TenantId> tenant = TenantId.of(request);
        if (tenant.isEmpty() || !FairWriteQueue.counts(request.getMethod())) {
            chain.doFilter(request, response);
            return;
        }
        FairWriteQueue.Place place;
        boolean interrupted = false;
        try {
            place = writes.acquire(tenant.get());
        } catch (InterruptedException e) {
            // The server is stopping: the 429 is written first, the interrupt kept for whoever runs the thread.
            interrupted = true;
            place = null;
        }
        if (place == null) {
            response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(writes.retryAfterSeconds()));
            problemWriter.write(
                    request,
                    response,
                    Problems.of(
                            HttpStatus.TOO_MANY_REQUESTS,
                            "too-many-requests",
                            "The service is busy with other writing requests and this one found no turn within "
                                    + writes.maxWait().toSeconds() + " s, or this tenant already has "
                                    + "memoir.tenant-limits.max-waiting requests waiting; retry after the Retry-After "
                                    + "header's seconds"));
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            return;
        }
        boolean streaming = false;
        try {
            chain.doFilter(request, response);
            if (request.isAsyncStarted()) {
                // A streamed reply is still being answered: it keeps its place until its response ends.
                request.getAsyncContext().addListener(new ReleaseWhenDone(place));
                streaming = true;
            }
        } finally {
            if (!streaming) {
                place.release();
            }
        }
    }

    /** Releases a place when an asynchronous response ends, however it ends. */
    private static final class ReleaseWhenDone implements AsyncListener {

        private final FairWriteQueue.Place place;

        ReleaseWhenDone(FairWriteQueue.Place place) {
            this.place = place;
        }

        @Override
        public void onComplete(AsyncEvent event) {
            place.release();
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            place.release();
        }

        @Override
        public void onError(AsyncEvent event) {
            place.release();
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            // A new asynchronous cycle of the same request: the place is still held and released when it ends.
            event.getAsyncContext().addListener(this);
        }
    }
}
