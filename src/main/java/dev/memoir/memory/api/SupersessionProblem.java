package dev.memoir.memory.api;

import java.util.UUID;

/** A memory whose supersession breaks the API's rules, and which rule. */
public record SupersessionProblem(UUID memoryId, UUID supersededBy, String problem) {}
