package dev.memoir.memory;

import java.util.Collection;
import java.util.UUID;
import java.util.stream.Collectors;

/** Literal forms of vectors and uuid arrays for native queries. */
final class Vectors {

    private Vectors() {
    }

    static String literal(float[] vector) {
        StringBuilder sb = new StringBuilder(vector.length * 12).append('[');
        for (int i = 0; i < vector.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(vector[i]);
        }
        return sb.append(']').toString();
    }

    static String uuidArrayLiteral(Collection<UUID> ids) {
        return ids.stream().map(UUID::toString).collect(Collectors.joining(",", "{", "}"));
    }
}
