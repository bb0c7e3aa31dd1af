package dev.memoir.archive.dataexport;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

import tools.jackson.databind.JsonNode;

/** The times of data exports: ChatGPT's epoch seconds (with a fraction), Claude's ISO 8601. */
final class ExportTimes {

    /** A time of an export that cannot be read; the conversation is refused with its message. */
    static final class UnreadableTime extends RuntimeException {
        UnreadableTime(String message) {
            super(message, null, false, false);
        }
    }

    private ExportTimes() {}

    /** Epoch seconds, or null when absent or null. */
    static Instant epochSeconds(JsonNode node, String field) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            return null;
        }
        // Between 1970 and 3000: an export's times are of its own days; anything else is not a time of it.
        if (!node.isNumber()
                || !Double.isFinite(node.doubleValue())
                || node.doubleValue() < 0
                || node.doubleValue() > 32_503_680_000d) {
            throw new UnreadableTime(field + " " + abbreviated(node) + " is not a time in epoch seconds");
        }
        double seconds = node.doubleValue();
        long whole = (long) Math.floor(seconds);
        return Instant.ofEpochSecond(whole, Math.round((seconds - whole) * 1_000_000) * 1000);
    }

    /** An ISO 8601 instant with its offset, or null when absent or null. */
    static Instant iso(JsonNode node, String field) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            return null;
        }
        if (!node.isString()) {
            throw new UnreadableTime(field + " " + abbreviated(node) + " is not an ISO 8601 time");
        }
        try {
            Instant time = OffsetDateTime.parse(node.stringValue()).toInstant();
            if (time.isBefore(Instant.EPOCH) || time.isAfter(Instant.parse("3000-01-01T00:00:00Z"))) {
                throw new UnreadableTime(field + " " + abbreviated(node) + " is not a time of the export");
            }
            return time;
        } catch (DateTimeParseException e) {
            throw new UnreadableTime(field + " " + abbreviated(node) + " is not an ISO 8601 time");
        }
    }

    static String abbreviated(JsonNode node) {
        String text = node.toString();
        return text.length() <= 40 ? text : text.substring(0, 40) + "…";
    }
}
