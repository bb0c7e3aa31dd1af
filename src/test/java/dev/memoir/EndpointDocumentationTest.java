package dev.memoir;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;

/**
 * Every endpoint a controller maps has a ready-made request in {@code http/} and is shown in docs/api.md, either as a
 * {@code curl} command on {@code $BASE} or named as {@code METHOD /path}. The mappings are read from the
 * {@code @Controller} classes under {@code dev.memoir} (their merged {@code @RequestMapping}s, so {@code @GetMapping}
 * and its kind count), not from a list kept by hand; a path variable matches any one segment of the request.
 */
class EndpointDocumentationTest {

    /** Spring Boot's error page, mapped so that errors answer a problem document: no endpoint of the API. */
    private static final Set<String> NOT_ENDPOINTS = Set.of("/error");

    private static final Pattern HTTP_REQUEST =
            Pattern.compile("(?m)^(GET|POST|PUT|PATCH|DELETE)\\s+\\{\\{baseUrl\\}\\}(/[^\\s?#]*)");
    private static final Pattern CURL = Pattern.compile("(?ms)\\bcurl\\b(?:[^\\n]*\\\\\\n)*[^\\n]*");
    private static final Pattern CURL_METHOD = Pattern.compile("(?:-X|--request)\\s+([A-Z]+)");
    private static final Pattern CURL_BODY = Pattern.compile("\\s(?:-d|--data|--data-binary|--data-raw|-F)\\s");
    private static final Pattern CURL_URL = Pattern.compile("\\$\\{?BASE\\}?(/[^\\s\"'?#]*)");
    private static final Pattern NAMED = Pattern.compile("\\b(GET|POST|PUT|PATCH|DELETE) (/[^\\s`?#,;)]*)");

    record Endpoint(String method, String path) {

        /** The path as a pattern: each {variable} stands for one segment. */
        Pattern pattern() {
            StringBuilder regex = new StringBuilder("^");
            Matcher variable = Pattern.compile("\\{[^}]+}").matcher(path);
            int last = 0;
            while (variable.find()) {
                regex.append(Pattern.quote(path.substring(last, variable.start())))
                        .append("[^/\\s]+");
                last = variable.end();
            }
            return Pattern.compile(regex.append(Pattern.quote(path.substring(last)))
                    .append("/?$")
                    .toString());
        }

        boolean matchedBy(List<Endpoint> requests) {
            Pattern pattern = pattern();
            return requests.stream()
                    .anyMatch(request -> request.method().equals(method)
                            && pattern.matcher(request.path()).matches());
        }

        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    static List<Endpoint> controllerMappings() throws ClassNotFoundException {
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false);
        scanner.addIncludeFilter(new AnnotationTypeFilter(Controller.class));
        Set<String> found = new TreeSet<>();
        for (BeanDefinition candidate : scanner.findCandidateComponents("dev.memoir")) {
            Class<?> type = Class.forName(candidate.getBeanClassName());
            RequestMapping onType = AnnotatedElementUtils.findMergedAnnotation(type, RequestMapping.class);
            String[] prefixes = onType == null || onType.path().length == 0 ? new String[] {""} : onType.path();
            for (Method method : type.getDeclaredMethods()) {
                RequestMapping onMethod = AnnotatedElementUtils.findMergedAnnotation(method, RequestMapping.class);
                if (onMethod == null) {
                    continue;
                }
                String[] paths = onMethod.path().length == 0 ? new String[] {""} : onMethod.path();
                RequestMethod[] verbs = onMethod.method().length == 0 ? RequestMethod.values() : onMethod.method();
                for (String prefix : prefixes) {
                    for (String path : paths) {
                        String full = prefix + (path.isEmpty() || path.startsWith("/") ? path : "/" + path);
                        if (NOT_ENDPOINTS.contains(full)) {
                            continue;
                        }
                        for (RequestMethod verb : verbs) {
                            found.add(verb.name() + " " + full);
                        }
                    }
                }
            }
        }
        return found.stream()
                .map(line -> line.split(" ", 2))
                .map(parts -> new Endpoint(parts[0], parts[1]))
                .toList();
    }

    /** The requests of every http/*.http file: METHOD {{baseUrl}}/path, query left out. */
    static List<Endpoint> httpRequests() throws IOException {
        List<Endpoint> requests = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("http"))) {
            for (Path file : files.filter(path -> path.toString().endsWith(".http"))
                    .sorted()
                    .toList()) {
                Matcher request = HTTP_REQUEST.matcher(Files.readString(file));
                while (request.find()) {
                    requests.add(new Endpoint(request.group(1), request.group(2)));
                }
            }
        }
        return requests;
    }

    /** What docs/api.md shows: its curl commands on $BASE (continued lines joined) and the METHOD /path it names. */
    static List<Endpoint> apiGuideRequests(String markdown) {
        List<Endpoint> requests = new ArrayList<>();
        Matcher curl = CURL.matcher(markdown);
        while (curl.find()) {
            String command = curl.group();
            Matcher url = CURL_URL.matcher(command);
            if (!url.find()) {
                continue;
            }
            Matcher method = CURL_METHOD.matcher(command);
            String verb =
                    method.find() ? method.group(1) : CURL_BODY.matcher(command).find() ? "POST" : "GET";
            requests.add(new Endpoint(verb, url.group(1)));
        }
        Matcher named = NAMED.matcher(markdown);
        while (named.find()) {
            requests.add(new Endpoint(named.group(1), named.group(2)));
        }
        return requests;
    }

    @Test
    void everyControllerMappingHasARequestInHttpAndIsShownInTheApiGuide() throws Exception {
        List<Endpoint> mappings = controllerMappings();
        assertThat(mappings)
                .as("controller mappings found")
                .hasSizeGreaterThan(40)
                .contains(new Endpoint("POST", "/chat"), new Endpoint("GET", "/users/{userId}/export"));

        List<Endpoint> http = httpRequests();
        List<Endpoint> guide = apiGuideRequests(Files.readString(Path.of("docs/api.md")));
        assertThat(mappings.stream().filter(mapping -> !mapping.matchedBy(http)).map(Endpoint::toString))
                .as("endpoints without a request in http/*.http")
                .isEmpty();
        assertThat(mappings.stream()
                        .filter(mapping -> !mapping.matchedBy(guide))
                        .map(Endpoint::toString))
                .as("endpoints not shown in docs/api.md")
                .isEmpty();
    }

    @Test
    void aMappingThatNoRequestShowsIsReported() throws IOException {
        List<Endpoint> guide = apiGuideRequests("""
                ```sh
                curl -s -X POST $BASE/sessions/$SESSION/close -H "Authorization: Bearer $KEY"
                curl -s "$BASE/memory?userId=alice" \\
                  -H "Authorization: Bearer $KEY"
                curl -s $BASE/memory -H 'Content-Type: application/json' \\
                  -d '{"userId": "alice"}'
                ```
                Operators run it again with `POST /admin/jobs/failed/{task}/{id}/retry`.
                """);

        assertThat(new Endpoint("POST", "/sessions/{id}/close").matchedBy(guide))
                .isTrue();
        assertThat(new Endpoint("GET", "/memory").matchedBy(guide)).isTrue();
        assertThat(new Endpoint("POST", "/memory").matchedBy(guide)).isTrue();
        assertThat(new Endpoint("POST", "/admin/jobs/failed/{task}/{instance}/retry").matchedBy(guide))
                .isTrue();
        assertThat(new Endpoint("GET", "/sessions/{id}/close").matchedBy(guide))
                .as("another method")
                .isFalse();
        assertThat(new Endpoint("DELETE", "/memory/{id}").matchedBy(guide))
                .as("a missing mapping")
                .isFalse();
        assertThat(new Endpoint("GET", "/sessions/{id}").matchedBy(guide))
                .as("a longer path only")
                .isFalse();
        assertThat(new Endpoint("GET", "/nowhere").matchedBy(httpRequests()))
                .as("a mapping http/ lacks")
                .isFalse();
    }
}
