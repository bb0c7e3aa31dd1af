package dev.memoir.common.web;

/** One rejected field of a request, listed under {@code errors} in a 400 ProblemDetail. */
public record FieldError(String field, String message) {}
