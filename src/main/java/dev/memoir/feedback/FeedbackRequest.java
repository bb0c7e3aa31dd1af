package dev.memoir.feedback;

import java.util.Locale;
import java.util.UUID;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.common.wire.VisibleText;
import dev.memoir.common.wire.WireNames;

@Schema(description = "The user's feedback on a reply: a verdict, a hint, a direct answer, or any mix of them")
record FeedbackRequest(
        @Schema(description = "The assistant turn judged") @NotNull
        UUID turnId,

        @Schema(description = "Whether the latest answer was right", example = "incorrect")
        Verdict verdict,

        @Schema(
                description = "A hint that helps find the right answer",
                example = "My sister's band is from Porto, not Lisbon.")
        @VisibleText
        @Size(max = FieldConstraints.FEEDBACK_TEXT)
        String hint,

        @Schema(description = "The right answer itself", example = "Porto")
        @VisibleText
        @Size(max = FieldConstraints.FEEDBACK_TEXT)
        String answer) {

    @AssertTrue(message = "give at least one of verdict, hint and answer")
    @Schema(hidden = true)
    boolean isSaysSomething() {
        return verdict != null || (hint != null && !hint.isBlank()) || (answer != null && !answer.isBlank());
    }

    enum Verdict {
        CORRECT,
        INCORRECT;

        @JsonValue
        String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        @JsonCreator
        static Verdict fromWireName(String value) {
            return WireNames.parse(Verdict.class, value, "verdict");
        }

        @Override
        public String toString() {
            return wireName();
        }
    }
}
