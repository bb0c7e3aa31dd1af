package dev.memoir.common.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import dev.memoir.support.IntegrationTest;
import dev.memoir.support.RawHttp;

/**
 * The inspector's files load without a key, under a policy that runs only the service's own scripts; no spelling
 * of a path under /ui opens anything else without one. Requests go over a raw socket so that no client normalises
 * the path before the server sees it.
 */
class InspectorPageServingTest extends IntegrationTest {

    private RawHttp.Response get(String path) {
        return new RawHttp(api.port()).send("GET", path, (String) null, null);
    }

    @Test
    void everyFileOfThePageLoadsWithoutAKeyUnderAPolicyThatRunsOnlyItsOwnScripts() throws IOException {
        Resource[] files = new PathMatchingResourcePatternResolver().getResources("classpath:static/ui/*");
        List<String> names = Arrays.stream(files)
                .map(Resource::getFilename)
                .filter(Objects::nonNull)
                .toList();
        assertThat(names)
                .as("files in static/ui and InspectorPage.ASSETS")
                .containsExactlyInAnyOrderElementsOf(InspectorPage.ASSETS);

        for (String name : names) {
            RawHttp.Response file = get("/ui/" + name);
            assertThat(file.status()).as(name).isEqualTo(200);
            assertThat(file.header("Content-Security-Policy"))
                    .as(name)
                    .isEqualTo(SecurityHeadersFilter.INSPECTOR_POLICY)
                    .contains("script-src 'self'", "style-src 'self'", "connect-src 'self'", "default-src 'none'")
                    .doesNotContain("unsafe-inline", "unsafe-eval", "*", "http:", "https:", "data:");
            assertThat(file.header("X-Content-Type-Options")).isEqualTo("nosniff");
            assertThat(file.header("X-Frame-Options")).isEqualTo("DENY");
            if (name.endsWith(".js")) {
                assertThat(file.header("Content-Type"))
                        .as(name)
                        .containsAnyOf("text/javascript", "application/javascript");
            }
        }
    }

    @Test
    void thePageHasNoInlineScriptAndLoadsNothingFromElsewhere() {
        String index = get("/ui/index.html").body();

        assertThat(index).contains("<label for=\"api-key\">API key</label>");
        assertThat(index.replaceAll("<script type=\"module\" src=\"app.js\"></script>", ""))
                .doesNotContain("<script")
                .doesNotContainPattern("\\son[a-z]+=")
                .doesNotContain("style=");
        assertThat(index).doesNotContain("//").doesNotContain("http");
    }

    @Test
    void theBarePathLeadsToThePage() {
        RawHttp.Response bare = new RawHttp(api.port()).send("GET", "/ui", Map.of("Host", "evil.example"), null);
        assertThat(bare.status()).isEqualTo(301);
        assertThat(bare.header("Location")).isEqualTo("/ui/").doesNotContain("evil");

        RawHttp.Response page = get("/ui/");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("<title>Memoir inspector</title>");
        assertThat(page.header("Content-Security-Policy")).isEqualTo(SecurityHeadersFilter.INSPECTOR_POLICY);
        assertThat(page.header("Cache-Control")).isEqualTo("no-cache");
    }

    @Test
    void noSpellingOfAPathUnderUiReachesTheApiWithoutAKey() {
        String key = api.newTenant();
        String user = "secret-user-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(api.addMemory(key, user, "A secret.").status()).isEqualTo(201);
        Map<String, Integer> answers = new LinkedHashMap<>();
        for (String path : List.of(
                "/ui/../users",
                "/ui/..;/users",
                "/ui/%2e%2e/users",
                "/ui/%2E%2E/users",
                "/ui/./../users",
                "/ui//../users",
                "/ui/index.html/../../users",
                "/UI/../users",
                "/ui;x=y/../users",
                "/ui/..%2fusers",
                "/ui/%2e%2e%2fusers",
                "/ui/app.js/..;/..;/users",
                "/ui/..%5cusers",
                "/ui/%252e%252e/users",
                "/ui/../memory?userId=" + user,
                "/ui/..;/memory?userId=" + user,
                "/ui/unknown.js",
                "/UI/",
                "/ui/APP.JS",
                "/ui/app.js;x=1",
                "/ui/%61pp.js",
                "/ui/./app.js",
                "/ui//app.js",
                "/ui/index.html?x=/../users",
                "/ui/../admin/tenants",
                "/ui/../actuator/metrics")) {
            RawHttp.Response response = get(path);
            answers.put(path, response.status());
            assertThat(response.body())
                    .as(path)
                    .doesNotContain(user)
                    .doesNotContain("\"items\"")
                    .doesNotContain("\"names\"");
            if (response.status() == 200) {
                // Only a spelling the service reads as the page itself may answer, and then with the page.
                assertThat(response.body()).as(path).contains("<title>Memoir inspector</title>");
            }
        }
        assertThat(answers)
                .as("answers per path")
                .allSatisfy((path, status) -> assertThat(status).as(path).isIn(200, 400, 401, 404));
        assertThat(answers.get("/ui/../users")).isEqualTo(401);
        assertThat(answers.get("/ui/unknown.js")).isEqualTo(401);
        assertThat(answers.get("/ui/APP.JS")).isEqualTo(401);
    }

    @Test
    void theServicesRootSendsABrowserToThePageAndOpensNothingElse() {
        RawHttp http = new RawHttp(api.port());
        RawHttp.Response root = http.send("GET", "/", Map.of("Host", "evil.example"), null);
        assertThat(root.status()).isEqualTo(302);
        assertThat(root.header("Location")).isEqualTo("/ui/").doesNotContain("evil");

        for (String method : List.of("POST", "PUT", "PATCH", "DELETE")) {
            assertThat(http.send(method, "/", (String) null, "{}").status())
                    .as(method)
                    .isEqualTo(401);
        }
        for (String spelling : List.of("//", "/;x=y", "/.", "/%2e", "/./")) {
            assertThat(http.send("GET", spelling, (String) null, null).status())
                    .as(spelling)
                    .isNotIn(200, 302);
        }
    }

    @Test
    void onlyReadingThePageIsOpen() {
        RawHttp http = new RawHttp(api.port());
        for (String method : List.of("POST", "PUT", "PATCH", "DELETE")) {
            RawHttp.Response response = http.send(method, "/ui/index.html", (String) null, "{}");
            assertThat(response.status()).as(method).isEqualTo(401);
        }
        assertThat(http.send("HEAD", "/ui/app.js", (String) null, null).status())
                .isEqualTo(200);
    }

    @Test
    void apiAnswersKeepTheirOwnPolicy() {
        String key = api.newTenant();
        RawHttp.Response users = new RawHttp(api.port()).send("GET", "/users", key, null);
        assertThat(users.status()).isEqualTo(200);
        assertThat(users.header("Content-Security-Policy")).isEqualTo(SecurityHeadersFilter.API_POLICY);
        assertThat(users.header("Cache-Control")).isEqualTo("no-store");
    }
}
