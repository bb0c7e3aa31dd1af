package dev.memoir.session;

import java.time.Instant;

/** How many sessions a user has, and when the latest activity in one of them was (a turn, a close). */
public record UserSessions(String userId, long sessions, Instant lastActiveAt) {
}
