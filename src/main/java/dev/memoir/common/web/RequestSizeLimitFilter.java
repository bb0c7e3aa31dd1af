package dev.memoir.common.web;

import java.io.IOException;
import java.util.regex.Pattern;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses bodies over {@code memoir.api.max-request-size} with 413: at once when the request declares its
 * length, and while reading when it is chunked. A user archive's import, which is streamed to the database, and an
 * assistant's export's import (streamed too) have a limit of their own, {@code memoir.api.max-archive-size}.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
class RequestSizeLimitFilter extends OncePerRequestFilter {

    private static final Pattern ARCHIVE_IMPORT = Pattern.compile("/users/[^/]+/import(/chatgpt|/claude)?/?");

    private final long maxRequestBytes;
    private final long maxArchiveBytes;
    private final ProblemWriter problemWriter;

    RequestSizeLimitFilter(ApiProperties properties, ProblemWriter problemWriter) {
        this.maxRequestBytes = properties.maxRequestSize().toBytes();
        this.maxArchiveBytes = properties.maxArchiveSize().toBytes();
        this.problemWriter = problemWriter;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long maxBytes = "POST".equals(request.getMethod())
                        && ARCHIVE_IMPORT.matcher(request.getRequestURI()).matches()
                ? maxArchiveBytes
                : maxRequestBytes;
        if (request.getContentLengthLong() > maxBytes) {
            problemWriter.write(request, response, tooLarge(maxBytes));
            return;
        }
        chain.doFilter(new LimitedRequest(request, maxBytes), response);
    }

    private static ProblemDetail tooLarge(long maxBytes) {
        return Problems.of(
                HttpStatus.CONTENT_TOO_LARGE,
                "payload-too-large",
                "The request body is larger than the allowed " + maxBytes + " bytes");
    }

    /** Thrown while reading a chunked body that grows past the limit; the advice answers 413. */
    static final class PayloadTooLargeException extends ApiException {
        PayloadTooLargeException(long maxBytes) {
            super(
                    HttpStatus.CONTENT_TOO_LARGE,
                    "payload-too-large",
                    "The request body is larger than the allowed " + maxBytes + " bytes");
        }
    }

    private static final class LimitedRequest extends HttpServletRequestWrapper {

        private final long maxBytes;
        private ServletInputStream stream;

        LimitedRequest(HttpServletRequest request, long maxBytes) {
            super(request);
            this.maxBytes = maxBytes;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new CountingStream(super.getInputStream(), maxBytes);
            }
            return stream;
        }
    }

    private static final class CountingStream extends ServletInputStream {

        private final ServletInputStream delegate;
        private final long maxBytes;
        private long count;

        CountingStream(ServletInputStream delegate, long maxBytes) {
            this.delegate = delegate;
            this.maxBytes = maxBytes;
        }

        @Override
        public int read() throws IOException {
            int b = delegate.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = delegate.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) {
            count += n;
            if (count > maxBytes) {
                throw new PayloadTooLargeException(maxBytes);
            }
        }

        @Override
        public boolean isFinished() {
            return delegate.isFinished();
        }

        @Override
        public boolean isReady() {
            return delegate.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            delegate.setReadListener(listener);
        }
    }
}
