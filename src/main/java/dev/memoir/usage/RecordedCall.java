package dev.memoir.usage;

import java.time.Instant;
import java.util.UUID;

import dev.memoir.common.usage.UsageScope;
import dev.memoir.llm.ModelUsage;

/** One request's usage as recorded, with whom it was for; its id keeps a write that is retried from counting twice. */
record RecordedCall(UUID id, Instant at, UsageScope.Attribution who, ModelUsage usage) {}
