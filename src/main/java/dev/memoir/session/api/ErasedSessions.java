package dev.memoir.session.api;

/** What erasing a user removed from the session tables. */
public record ErasedSessions(int sessions, int turns) {}
