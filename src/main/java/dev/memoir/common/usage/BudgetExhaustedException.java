package dev.memoir.common.usage;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.springframework.http.HttpStatus;

import dev.memoir.common.web.ApiException;

/**
 * A model request the tenant's (or the user's) budget does not allow now. A client's request is answered 429
 * {@code budget-exhausted} with when the budget renews; a background job that meets it is held back, not failed, and
 * looks again at {@link #lookAgainAt()}.
 */
public class BudgetExhaustedException extends ApiException {

    private final Instant renewsAt;
    private final Instant lookAgainAt;

    public BudgetExhaustedException(String whose, Instant renewsAt, Instant lookAgainAt) {
        super(
                HttpStatus.TOO_MANY_REQUESTS,
                "budget-exhausted",
                "The " + whose + " model budget is used up until " + renewsAt
                        + "; searches, reads, exports and erasure still work",
                null,
                Duration.between(Instant.now(), renewsAt).isNegative()
                        ? Duration.ZERO
                        : Duration.between(Instant.now(), renewsAt));
        this.renewsAt = renewsAt;
        this.lookAgainAt = lookAgainAt;
    }

    /** When the budget's period ends and its count starts again. */
    public Instant renewsAt() {
        return renewsAt;
    }

    /** When held-back work should look again (the budget may be raised before it renews). */
    public Instant lookAgainAt() {
        return lookAgainAt;
    }

    @Override
    public Map<String, Object> properties() {
        return Map.of("renewsAt", renewsAt.toString());
    }
}
