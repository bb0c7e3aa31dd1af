package dev.memoir.memory.store;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;

import dev.memoir.common.web.InvalidRequestException;

/** A vector as a user archive carries it: base64 of its little-endian 32-bit floats. */
public final class ArchivedVectors {

    private ArchivedVectors() {}

    /** A vector as PostgreSQL writes it ({@code [0.1,0.2]}) in base64 of its floats; null for null. */
    public static String base64(String vectorText) {
        if (vectorText == null) {
            return null;
        }
        String[] parts = vectorText.substring(1, vectorText.length() - 1).split(",");
        ByteBuffer bytes = ByteBuffer.allocate(parts.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (String part : parts) {
            bytes.putFloat(Float.parseFloat(part));
        }
        return Base64.getEncoder().encodeToString(bytes.array());
    }

    /**
     * The vector, or null when absent, not a whole number of floats, not finite, all zeros, or with a norm a float
     * cannot hold: such a vector is computed again. pgvector sums a vector's squares in single precision, so a zero
     * vector, one whose squares all round to zero, and one whose squares overflow (3e38 in every dimension) have no
     * usable length: their cosine is NaN and search would score them so.
     */
    public static float[] floats(String base64) {
        if (base64 == null) {
            return null;
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("archive", "an embedding is not base64");
        }
        if (bytes.length == 0 || bytes.length % 4 != 0) {
            return null;
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        float[] vector = new float[bytes.length / 4];
        float norm = 0;
        for (int i = 0; i < vector.length; i++) {
            vector[i] = buffer.getFloat();
            if (!Float.isFinite(vector[i])) {
                return null;
            }
            norm += vector[i] * vector[i];
        }
        return norm > 0 && Float.isFinite(norm) ? vector : null;
    }
}
