package dev.memoir.tenant;

import org.springframework.http.HttpStatus;

import dev.memoir.common.web.ApiException;

/**
 * Proof that a request was authenticated with the operator's bootstrap key. Operator handlers take it as a
 * parameter, so that whatever path the router took to reach them, they refuse a request that lacks it.
 */
public record OperatorAccess() {

    static final String ATTRIBUTE = OperatorAccess.class.getName();

    static final class NotTheOperatorException extends ApiException {
        NotTheOperatorException() {
            super(HttpStatus.UNAUTHORIZED, "unauthorized", "This endpoint needs the operator's bootstrap key");
        }
    }
}
