package dev.memoir.common.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLTransientConnectionException;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.transaction.CannotCreateTransactionException;

/** A pool that stays exhausted past its timeout, or a database that is down, is a 503 to wait out, not a 500. */
class DatabaseUnavailableTest {

    private final ApiExceptionHandler handler = new ApiExceptionHandler();

    @Test
    void aTransactionThatGetsNoConnectionIsA503WithRetryAfter() {
        var poolTimeout = new CannotCreateTransactionException(
                "Could not open JPA EntityManager for transaction",
                new SQLTransientConnectionException("HikariPool-1 - Connection is not available, request timed out"));

        ResponseEntity<ProblemDetail> response = handler.handleDatabaseUnavailable(poolTimeout);

        assertThat(response.getStatusCode().value()).isEqualTo(503);
        assertThat(response.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("2");
        assertThat(response.getBody().getProperties()).containsEntry("code", "database-unavailable");
        assertThat(response.getBody().getDetail()).doesNotContain("Hikari");
    }
}
