package dev.memoir.memory.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class VectorsTest {

    @Test
    void literalIsPgvectorSyntax() {
        assertThat(Vectors.literal(new float[] {0.5f, -1f})).isEqualTo("[0.5,-1.0]");
    }
}
