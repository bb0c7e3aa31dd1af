package dev.memoir.session;

/** An assistant reply, the user message it answered, and the session both belong to. */
public record RepliedTurn(SessionRef session, TurnView question, TurnView reply) {}
