package dev.memoir.memory.store;

/** The literal form of a vector for native queries. */
public final class Vectors {

    private Vectors() {}

    public static String literal(float[] vector) {
        StringBuilder sb = new StringBuilder(vector.length * 12).append('[');
        for (int i = 0; i < vector.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(vector[i]);
        }
        return sb.append(']').toString();
    }
}
