package dev.memoir.web;

import java.util.List;
import java.util.stream.Collectors;

import org.springframework.http.HttpStatus;

/** A request that binding accepted but that is still wrong; answers 400 naming each wrong field. */
public class InvalidRequestException extends ApiException {

    private final List<FieldError> errors;

    public InvalidRequestException(String field, String message) {
        this(List.of(new FieldError(field, message)));
    }

    public InvalidRequestException(List<FieldError> errors) {
        super(HttpStatus.BAD_REQUEST, "invalid-request",
                errors.stream().map(e -> e.field() + " " + e.message()).collect(Collectors.joining("; ")));
        this.errors = List.copyOf(errors);
    }

    public List<FieldError> errors() {
        return errors;
    }
}
