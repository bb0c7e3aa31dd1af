package dev.memoir.common.web;

import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import org.springframework.http.HttpStatus;

/** A request that binding accepted but that is still wrong; answers 400 naming each wrong field. */
public class InvalidRequestException extends ApiException {

    private final List<FieldError> errors;

    public InvalidRequestException(String field, String message) {
        this(List.of(new FieldError(field, message)));
    }

    public InvalidRequestException(List<FieldError> errors) {
        super(
                HttpStatus.BAD_REQUEST,
                "invalid-request",
                errors.stream().map(e -> e.field() + " " + e.message()).collect(Collectors.joining("; ")));
        this.errors = List.copyOf(errors);
    }

    public List<FieldError> errors() {
        return errors;
    }

    /** The same errors with their fields renamed: for a caller that passed on part of its request under other names. */
    public InvalidRequestException withFieldsRenamed(UnaryOperator<String> rename) {
        return new InvalidRequestException(errors.stream()
                .map(error -> new FieldError(rename.apply(error.field()), error.message()))
                .toList());
    }
}
