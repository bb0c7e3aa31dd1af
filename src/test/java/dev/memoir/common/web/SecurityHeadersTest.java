package dev.memoir.common.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.RawHttp;

class SecurityHeadersTest extends IntegrationTest {

    @Test
    void aForgedHostHeaderNeverReachesTheLocationOfANewSession() {
        String key = api.newTenant();
        RawHttp.Response created = new RawHttp(api.port())
                .send(
                        "POST",
                        "/sessions",
                        Map.of("Host", "evil.example", "Authorization", "Bearer " + key),
                        "{\"userId\": \"host-user\"}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.header("Location")).doesNotContain("evil.example").startsWith("/sessions/");
    }

    @Test
    void everyApiAnswerForbidsSniffingFramingAndCaching() {
        String key = api.newTenant();
        RawHttp http = new RawHttp(api.port());
        for (RawHttp.Response response : new RawHttp.Response[] {
            http.send("GET", "/sessions?userId=u", key, null),
            http.send("GET", "/sessions?userId=u", "mk_wrong", null),
            http.send("POST", "/admin/tenants", Api.BOOTSTRAP_KEY, "{\"name\": \"headers\"}")
        }) {
            assertThat(response.header("X-Content-Type-Options")).isEqualTo("nosniff");
            assertThat(response.header("Cache-Control")).isEqualTo("no-store");
            assertThat(response.header("Content-Security-Policy")).contains("default-src 'none'");
            assertThat(response.header("X-Frame-Options")).isEqualTo("DENY");
        }
    }

    @Test
    void theSwaggerPageLoadsOnlyTheServicesOwnAssets() {
        RawHttp.Response page = new RawHttp(api.port()).send("GET", "/swagger-ui/index.html", (String) null, null);
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.header("Content-Security-Policy"))
                .contains("default-src 'self'")
                .contains("frame-ancestors 'none'")
                .doesNotContain("*");
        assertThat(page.header("X-Content-Type-Options")).isEqualTo("nosniff");
    }
}
