package dev.memoir.llm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;

class LenientJsonTest {

    @Test
    void findsTheObjectInsideCodeFencesAndChatter() {
        JsonNode json = LenientJson.object("Sure!\n```json\n{\"reply\": \"hi\", \"remember\": true}\n```\nBye")
                .orElseThrow();
        assertThat(LenientJson.text(json, "reply")).contains("hi");
        assertThat(LenientJson.bool(json, "remember")).contains(true);
    }

    @Test
    void truncatedOrMissingJsonGivesNothing() {
        assertThat(LenientJson.object("{\"reply\": \"hi")).isEmpty();
        assertThat(LenientJson.object("no json here")).isEmpty();
        assertThat(LenientJson.object(null)).isEmpty();
        assertThat(LenientJson.object("[1, 2]")).isEmpty();
    }

    @Test
    void acceptsTheNearMissesOfSmallModels() {
        JsonNode json = LenientJson.object("{\"a\": \"yes\", \"b\": \"No\", \"c\": \"maybe\", "
                        + "\"n\": [1, \"2\", \"x\", 3.5, null], \"k\": [\"cats\", \" \", 7]}")
                .orElseThrow();
        assertThat(LenientJson.bool(json, "a")).contains(true);
        assertThat(LenientJson.bool(json, "b")).contains(false);
        assertThat(LenientJson.bool(json, "c")).isEmpty();
        assertThat(LenientJson.integers(json, "n")).containsExactly(1, 2);
        assertThat(LenientJson.strings(json, "k")).containsExactly("cats", "7");
        assertThat(LenientJson.text(json, "missing")).isEmpty();
        assertThat(LenientJson.integers(json, "a")).isEmpty();
    }

    @Test
    void integersBeyondAnIntAreNotReadInsteadOfFailing() {
        JsonNode json = LenientJson.object("{\"i\": 2147483648, \"s\": \"99999999999\", \"n\": -2147483649, "
                        + "\"ok\": 2147483647, \"list\": [4294967296, 5, \"12345678901234567890\"]}")
                .orElseThrow();
        assertThat(LenientJson.integer(json, "i")).isEmpty();
        assertThat(LenientJson.integer(json, "s")).isEmpty();
        assertThat(LenientJson.integer(json, "n")).isEmpty();
        assertThat(LenientJson.integer(json, "ok")).contains(Integer.MAX_VALUE);
        assertThat(LenientJson.integers(json, "list")).containsExactly(5);
    }

    @Test
    void runawayTextIsCutAtAWordBoundaryAndMarked() {
        String runaway = "word ".repeat(10_000);
        JsonNode json = LenientJson.object("{\"t\": \"" + runaway + "\"}").orElseThrow();
        String text = LenientJson.text(json, "t").orElseThrow();
        assertThat(text.length()).isLessThanOrEqualTo(LenientJson.MAX_TEXT_LENGTH);
        assertThat(text).endsWith("word\u2026");
        assertThat(LenientJson.clip("short")).isEqualTo("short");
    }
}
