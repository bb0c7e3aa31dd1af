package dev.memoir.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

class VectorsTest {

    @Test
    void cosineOfParallelOrthogonalAndOppositeVectors() {
        assertThat(Vectors.cosine(new float[] {1, 2}, new float[] {2, 4})).isCloseTo(1.0, within(1e-9));
        assertThat(Vectors.cosine(new float[] {1, 0}, new float[] {0, 3})).isCloseTo(0.0, within(1e-9));
        assertThat(Vectors.cosine(new float[] {1, 1}, new float[] {-1, -1})).isCloseTo(-1.0, within(1e-9));
        assertThat(Vectors.cosine(new float[] {0, 0}, new float[] {1, 1})).isZero();
    }

    @Test
    void literalsArePgvectorAndPostgresArraySyntax() {
        assertThat(Vectors.literal(new float[] {0.5f, -1f})).isEqualTo("[0.5,-1.0]");
        UUID id = UUID.fromString("00000000-0000-0000-0000-000000000001");
        assertThat(Vectors.uuidArrayLiteral(List.of(id))).isEqualTo("{" + id + "}");
        assertThat(Vectors.uuidArrayLiteral(List.of())).isEqualTo("{}");
    }
}
