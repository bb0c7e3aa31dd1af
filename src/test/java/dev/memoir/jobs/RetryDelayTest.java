package dev.memoir.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

import dev.memoir.common.web.ApiException;

class RetryDelayTest {

    private static final Duration FIRST = Duration.ofSeconds(10);

    @Test
    void eachRetryWaitsBetweenHalfAndAllOfADoublingLimit() {
        Random random = new Random(7);
        for (int failures = 1; failures <= 6; failures++) {
            long limit = FIRST.toMillis() << (failures - 1);
            for (int draw = 0; draw < 200; draw++) {
                assertThat(RetriedThenDeadLettered.retryDelay(FIRST, failures, new IllegalStateException(), random)
                                .toMillis())
                        .isBetween(limit / 2, limit);
            }
        }
    }

    @Test
    void jobsThatFailedTogetherDoNotComeBackTogether() {
        Random random = new Random(11);
        Set<Duration> delays = new HashSet<>();
        for (int job = 0; job < 8; job++) {
            delays.add(RetriedThenDeadLettered.retryDelay(FIRST, 1, new IllegalStateException(), random));
        }
        assertThat(delays).hasSizeGreaterThan(6);
    }

    @Test
    void aFailureThatAsksForALongerWaitGetsIt() {
        ApiException overloaded = new ApiException(
                HttpStatus.SERVICE_UNAVAILABLE, "model-unavailable", "busy", null, Duration.ofSeconds(45)) {};

        assertThat(RetriedThenDeadLettered.retryDelay(FIRST, 1, overloaded, new Random(3)))
                .isEqualTo(Duration.ofSeconds(45));
        assertThat(RetriedThenDeadLettered.retryDelay(FIRST, 4, overloaded, new Random(3)))
                .isGreaterThanOrEqualTo(Duration.ofSeconds(40));
    }
}
