package dev.memoir.tenant;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.servlet.FilterChain;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockAsyncContext;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import dev.memoir.common.web.ProblemWriter;

import tools.jackson.databind.json.JsonMapper;

/**
 * A streamed reply is answered after its handler returns: its write keeps its place until its response ends (with
 * one place, a request meanwhile waits its turn in vain and is refused).
 */
class FairWriteQueueAsyncTest {

    private final TenantId tenant = new TenantId(UUID.randomUUID());
    private final ApiKeyAuthenticationFilter authentication = new ApiKeyAuthenticationFilter(
            new TenantService(null, null, null, null) {
                @Override
                Optional<Authenticated> authenticate(String key) {
                    return Optional.of(new Authenticated(tenant, UUID.randomUUID()));
                }
            },
            new SecurityProperties(null),
            problemWriter());
    private final WriteQueueFilter writeQueue = new WriteQueueFilter(
            new FairWriteQueue(
                    new TenantLimits(1, 1, Duration.ofMillis(100), 10, Duration.ofSeconds(2)),
                    new SimpleMeterRegistry()),
            problemWriter());

    /** The real writer, with no error dialect; its constructor belongs to common.web's wiring. */
    private static ProblemWriter problemWriter() {
        try {
            var constructor = ProblemWriter.class.getDeclaredConstructor(JsonMapper.class, List.class);
            constructor.setAccessible(true);
            return constructor.newInstance(JsonMapper.builder().build(), List.of());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static MockHttpServletRequest post() {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/chat");
        request.addHeader("Authorization", "Bearer some-key");
        request.setAsyncSupported(true);
        return request;
    }

    /** Whether the request got past both filters, in their order, rather than a 429. */
    private boolean admitted(MockHttpServletRequest request, FilterChain then) throws Exception {
        boolean[] reached = new boolean[1];
        MockHttpServletResponse response = new MockHttpServletResponse();
        authentication.doFilter(
                request,
                response,
                (authenticated, res) -> writeQueue.doFilter(authenticated, res, (req, r) -> {
                    reached[0] = true;
                    then.doFilter(req, r);
                }));
        assertThat(response.getStatus()).isEqualTo(reached[0] ? 200 : 429);
        return reached[0];
    }

    @Test
    void anAsynchronousResponseHoldsItsPermitUntilItCompletes() throws Exception {
        MockHttpServletRequest streaming = post();

        assertThat(admitted(streaming, (req, res) -> req.startAsync())).isTrue();
        assertThat(admitted(post(), (req, res) -> {}))
                .as("while the stream is answered")
                .isFalse();

        ((MockAsyncContext) streaming.getAsyncContext()).complete();

        assertThat(admitted(post(), (req, res) -> {}))
                .as("once the stream ended")
                .isTrue();
        assertThat(admitted(post(), (req, res) -> {}))
                .as("a plain request releases its place at once")
                .isTrue();
    }

    @Test
    void aRequestThatFindsNoTurnIsARetryableProblemAndAReadIsNotQueued() throws Exception {
        MockHttpServletRequest streaming = post();
        assertThat(admitted(streaming, (req, res) -> req.startAsync())).isTrue();

        MockHttpServletResponse refused = new MockHttpServletResponse();
        authentication.doFilter(post(), refused, (req, res) -> writeQueue.doFilter(req, res, (r, s) -> {}));
        assertThat(refused.getStatus()).isEqualTo(429);
        assertThat(refused.getHeader("Retry-After")).isEqualTo("2");
        assertThat(refused.getContentAsString()).contains("too-many-requests");

        MockHttpServletRequest read = post();
        read.setMethod("GET");
        assertThat(admitted(read, (req, res) -> {}))
                .as("reads pass a full queue")
                .isTrue();
        ((MockAsyncContext) streaming.getAsyncContext()).complete();
    }
}
