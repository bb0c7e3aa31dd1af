package dev.memoir.writing;

import java.util.UUID;

/** The turns of a session, from and to positions included, that one memo-writing job covers. */
record MemoSpan(UUID sessionId, int fromSeq, int toSeq) {

    String id() {
        return sessionId + ":" + fromSeq + ":" + toSeq;
    }

    static MemoSpan parse(String id) {
        String[] parts = id.split(":");
        return new MemoSpan(UUID.fromString(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
    }
}
