package dev.memoir.session.api;

/** An assistant reply, the user message it answered, and the session both belong to. */
public record RepliedTurn(SessionRef session, TurnView question, TurnView reply) {}
