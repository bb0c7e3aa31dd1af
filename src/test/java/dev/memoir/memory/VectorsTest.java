package dev.memoir.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

class VectorsTest {

    @Test
    void literalsArePgvectorAndPostgresArraySyntax() {
        assertThat(Vectors.literal(new float[] {0.5f, -1f})).isEqualTo("[0.5,-1.0]");
        UUID id = UUID.fromString("00000000-0000-0000-0000-000000000001");
        assertThat(Vectors.uuidArrayLiteral(List.of(id))).isEqualTo("{" + id + "}");
        assertThat(Vectors.uuidArrayLiteral(List.of())).isEqualTo("{}");
    }
}
