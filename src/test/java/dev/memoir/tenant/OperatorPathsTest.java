package dev.memoir.tenant;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OperatorPathsTest {

    @Test
    void everySpellingThatCouldReachAnOperatorRootIsOperatorOnly() {
        assertThat(OperatorPathVariantsTest.variantsOf("admin", "/tenants"))
                .allSatisfy(path ->
                        assertThat(OperatorPaths.isOperatorPath(path)).as(path).isTrue());
        assertThat(OperatorPathVariantsTest.variantsOf("actuator", "/metrics"))
                .allSatisfy(path ->
                        assertThat(OperatorPaths.isOperatorPath(path)).as(path).isTrue());
    }

    @Test
    void tenantPathsAreNotOperatorPaths() {
        assertThat(OperatorPaths.isOperatorPath("/sessions")).isFalse();
        assertThat(OperatorPaths.isOperatorPath("/memory/admin")).isFalse();
        assertThat(OperatorPaths.isOperatorPath("/administrators")).isFalse();
        assertThat(OperatorPaths.isOperatorPath("/admin/../sessions")).isFalse();
    }

    @Test
    void aMalformedEscapeIsKeptRatherThanThrown() {
        assertThat(OperatorPaths.canonical("/%zz/admin")).isEqualTo("/%zz/admin");
        assertThat(OperatorPaths.isOperatorPath("/%E0%A4%A/admin")).isFalse();
        assertThat(OperatorPaths.isOperatorPath("/%61dmin/tenants%zz")).isTrue();
    }
}
