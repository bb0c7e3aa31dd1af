package dev.memoir.llm;

import java.util.Optional;

import tools.jackson.databind.JsonNode;

/** What the model said: its raw text, and the JSON object in it when there is one. */
record ModelAnswer(String text, Optional<JsonNode> json) {}
