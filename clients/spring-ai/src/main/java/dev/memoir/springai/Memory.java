package dev.memoir.springai;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** A memory as Memoir answers it: its id, kind and text, and the search score where one was asked for. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Memory(String id, String kind, String text, Double score) {}
