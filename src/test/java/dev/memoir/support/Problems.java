package dev.memoir.support;

import static org.assertj.core.api.Assertions.assertThat;

/** Assertions on the service's problem details (RFC 9457 bodies with a stable code). */
public final class Problems {

    private Problems() {}

    /** The answer is a problem of this status and code, with the code's stable type URI and a detail. */
    public static void assertProblem(Api.Response response, int status, String code) {
        assertThat(response.status()).as(response.raw()).isEqualTo(status);
        assertThat(response.text("code")).as(response.raw()).isEqualTo(code);
        assertThat(response.text("type")).as(response.raw()).isEqualTo("https://memoir.dev/problems/" + code);
        assertThat(response.text("detail")).as(response.raw()).isNotBlank();
    }

    /** The answer is a 400 {@code invalid-request} problem whose errors name the field (among any others). */
    public static void assertBadField(Api.Response response, String field) {
        assertProblem(response, 400, "invalid-request");
        assertThat(response.body().path("errors").findValuesAsString("field"))
                .as(response.raw())
                .contains(field);
    }
}
