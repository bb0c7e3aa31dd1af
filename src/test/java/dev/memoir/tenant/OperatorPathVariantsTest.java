package dev.memoir.tenant;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.RawHttp;

/**
 * A tenant key must never act as the operator, however the path to /admin or /actuator is spelled. Requests go
 * over a raw socket so that no client normalises the path before the server sees it.
 */
class OperatorPathVariantsTest extends IntegrationTest {

    static List<String> variantsOf(String root, String rest) {
        String upper = root.toUpperCase();
        String first = "%" + Integer.toHexString(root.charAt(0)).toUpperCase() + root.substring(1);
        String firstLower = "%" + Integer.toHexString(root.charAt(0)) + root.substring(1);
        String all = root.chars().mapToObj(c -> "%" + Integer.toHexString(c)).reduce("", String::concat);
        List<String> variants = new ArrayList<>(List.of(
                "/" + root + rest,
                "/" + first + rest,
                "/" + firstLower + rest,
                "/" + all + rest,
                "/%25" + Integer.toHexString(root.charAt(0)) + root.substring(1) + rest,
                "//" + root + rest,
                "///" + root + rest,
                "/./" + root + rest,
                "/x/../" + root + rest,
                "/sessions/../" + root + rest,
                "/swagger-ui/../" + root + rest,
                "/actuator/health/../../" + root + rest,
                "/%2e/" + root + rest,
                "/x/%2e%2e/" + root + rest,
                "/" + root + ";a=b" + rest,
                "/" + root + ";" + rest,
                "/;x=y/" + root + rest,
                "/" + upper + rest,
                "/" + root.substring(0, 1).toUpperCase() + root.substring(1) + rest,
                "/" + root + "/" + rest.replaceFirst("^/", "/./"),
                "/" + root + rest.replace("/", "//"),
                "/" + root + "%2F" + rest.replaceFirst("^/", ""),
                "\\" + root + rest,
                "/" + root + "%3B" + rest));
        return variants;
    }

    @Test
    void noSpellingOfAdminLetsATenantKeyCreateATenant() {
        String tenantKey = api.newTenant();
        String body = "{\"name\": \"intruder\"}";
        Map<String, Integer> answers = new LinkedHashMap<>();
        for (String path : variantsOf("admin", "/tenants")) {
            RawHttp.Response response = raw("POST", path, tenantKey, body);
            answers.put(path, response.status());
            assertThat(response.body()).as(path).doesNotContain("apiKey");
        }
        assertThat(answers)
                .as("answers per path")
                .allSatisfy((path, status) -> assertThat(status).as(path).isIn(400, 401, 404, 405));
        // The plain path with the operator's key still works, so the refusals above are about the key.
        assertThat(raw("POST", "/admin/tenants", Api.BOOTSTRAP_KEY, body).status())
                .isEqualTo(201);
    }

    @Test
    void noSpellingOfActuatorLetsATenantKeyReadOperatorMetrics() {
        String tenantKey = api.newTenant();
        Map<String, Integer> answers = new LinkedHashMap<>();
        for (String path : variantsOf("actuator", "/metrics")) {
            RawHttp.Response response = raw("GET", path, tenantKey, null);
            answers.put(path, response.status());
            assertThat(response.body()).as(path).doesNotContain("\"names\"");
        }
        assertThat(answers)
                .as("answers per path")
                .allSatisfy((path, status) -> assertThat(status).as(path).isIn(400, 401, 404, 405));
        assertThat(raw("GET", "/actuator/metrics", Api.BOOTSTRAP_KEY, null).status())
                .isEqualTo(200);
    }

    @Test
    void healthStaysOpenButOnlyUnderItsPlainName() {
        assertThat(raw("GET", "/actuator/health", null, null).status()).isEqualTo(200);
        assertThat(raw("GET", "/actuator/health/../metrics", null, null).status())
                .isIn(400, 401, 404);
        assertThat(raw("GET", "/%61ctuator/health", null, null).status()).isIn(400, 401, 404);
    }

    private RawHttp.Response raw(String method, String path, String key, String body) {
        return new RawHttp(api.port()).send(method, path, key, body);
    }
}
