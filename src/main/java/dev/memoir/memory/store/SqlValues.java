package dev.memoir.memory.store;

import java.sql.Array;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

import org.postgresql.util.PGobject;

/** The vector and uuid-array values of memory's native queries, bound and read the same way everywhere. */
public final class SqlValues {

    private SqlValues() {}

    /** A pgvector parameter. */
    public static PGobject vector(float[] embedding) {
        return pgObject("vector", Vectors.literal(embedding));
    }

    /** A {@code uuid[]} parameter; null binds an empty array. */
    public static PGobject uuidArray(Collection<UUID> ids) {
        return pgObject(
                "uuid[]",
                (ids == null ? List.<UUID>of() : ids)
                        .stream().map(UUID::toString).collect(Collectors.joining(",", "{", "}")));
    }

    /** A {@code text[]} parameter of plain words (letters, digits, hyphens); null binds null. */
    public static PGobject wordArray(List<String> words) {
        return words == null ? null : pgObject("text[]", String.join(",", words).transform(w -> "{" + w + "}"));
    }

    /** A {@code uuid[]} column; null reads as an empty list. */
    public static List<UUID> uuids(Array array) throws SQLException {
        return array == null
                ? List.of()
                : Arrays.stream((Object[]) array.getArray())
                        .map(UUID.class::cast)
                        .toList();
    }

    private static PGobject pgObject(String type, String value) {
        try {
            PGobject object = new PGobject();
            object.setType(type);
            object.setValue(value);
            return object;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
