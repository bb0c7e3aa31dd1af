package dev.memoir.user;

import java.time.Instant;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A user of the tenant: someone with a session or a memory")
record UserView(
        @Schema(example = "alice") String userId,

        @Schema(description = "How many sessions the user has")
        long sessions,

        @Schema(description = "How many memories the user has, of every kind")
        long memories,

        @Schema(
                description = "The latest of: the last turn or close in one of the user's sessions, and the newest "
                        + "memory written for the user (when Memoir stored them)")
        Instant lastActiveAt,

        @Schema(
                description = "When the user's last turn was said, in any of their sessions: for imported dialogue its "
                        + "own date, not when it was imported; absent without turns")
        Instant lastSaidAt) {}
