package dev.memoir.session;

import java.time.Instant;

/**
 * How many sessions a user has, when the latest activity in one of them was stored (a turn, a close), and when the
 * latest turn in one of them was said (for imported dialogue, its own date).
 */
public record UserSessions(String userId, long sessions, Instant lastActiveAt, Instant lastSaidAt) {}
