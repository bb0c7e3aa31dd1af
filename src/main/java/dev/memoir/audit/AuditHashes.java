package dev.memoir.audit;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The two hashes of the chain. An entry's content hash covers every field it was written with, each after its
 * length, in a fixed order (the time in microseconds, as PostgreSQL keeps it); its hash links it to the one before:
 * {@code sha256(prev_hash || seq || content_hash)}, the first entry's {@code prev_hash} being empty.
 */
final class AuditHashes {

    private AuditHashes() {}

    /** The time as the database keeps it, so that the content hash reads the same before and after storing. */
    static Instant stored(Instant at) {
        return at.truncatedTo(ChronoUnit.MICROS);
    }

    static byte[] content(
            UUID tenant,
            UUID id,
            Instant recordedAt,
            String actor,
            String action,
            String userHash,
            List<UUID> subjects,
            String details) {
        Instant at = stored(recordedAt);
        long micros = at.getEpochSecond() * 1_000_000 + at.getNano() / 1_000;
        StringBuilder canonical = new StringBuilder();
        for (String field : new String[] {
            tenant.toString(),
            id.toString(),
            Long.toString(micros),
            actor,
            action,
            userHash == null ? "" : userHash,
            subjects.stream().map(UUID::toString).collect(Collectors.joining(",")),
            details
        }) {
            // Each field after its length: no value can pass for the end of one field and the start of the next.
            canonical.append(field.length()).append(':').append(field).append('\n');
        }
        return sha256(canonical.toString().getBytes(StandardCharsets.UTF_8));
    }

    static byte[] link(byte[] previous, long seq, byte[] content) {
        byte[] prev = previous == null ? new byte[0] : previous;
        return sha256(ByteBuffer.allocate(prev.length + Long.BYTES + content.length)
                .put(prev)
                .putLong(seq)
                .put(content)
                .array());
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
