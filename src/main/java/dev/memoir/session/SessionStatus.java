package dev.memoir.session;

public enum SessionStatus {
    OPEN, CLOSED
}
