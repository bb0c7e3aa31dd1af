package dev.memoir.common.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.memoir.support.Api;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

import tools.jackson.databind.JsonNode;

class CursorPagingTest extends IntegrationTest {

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    @Autowired
    private JdbcTemplate jdbc;

    /** Every page of a list, following nextCursor; checks that the last page has none. */
    private List<JsonNode> allPages(Function<String, Api.Response> page, Runnable betweenPages) {
        List<JsonNode> seen = new ArrayList<>();
        String cursor = null;
        for (int pages = 0; pages < 1000; pages++) {
            Api.Response response = page.apply(cursor);
            assertThat(response.status()).as(response.raw()).isEqualTo(200);
            seen.addAll(items(response));
            JsonNode next = response.body().path("nextCursor");
            if (next.isMissingNode() || next.isNull()) {
                return seen;
            }
            cursor = URLEncoder.encode(next.asString(), StandardCharsets.UTF_8);
            betweenPages.run();
        }
        throw new AssertionError("the pages never ended");
    }

    @Test
    void pagingMemoriesWhileOthersAreAddedShowsEachMemoryExactlyOnceNewestFirst() throws Exception {
        String key = api.newTenant();
        List<String> existing = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            existing.add(api.addFact(key, "ada", "Fact number " + i + " " + tag));
        }
        // Ten memories created at the very same instant: pages must cut through them by id, not lose or repeat any.
        jdbc.update(
                "update memory_records set created_at = ? where id = any(?::uuid[])",
                Timestamp.from(Instant.now().minus(1, ChronoUnit.HOURS)),
                "{" + String.join(",", existing.subList(5, 15)) + "}");
        Set<String> addedWhilePaging = ConcurrentHashMap.newKeySet();
        AtomicBoolean paging = new AtomicBoolean(true);
        Thread writer = Thread.ofVirtual().start(() -> {
            for (int i = 0; paging.get() && i < 200; i++) {
                addedWhilePaging.add(api.addFact(key, "ada", "Added while paging " + i + " " + tag));
            }
        });

        List<JsonNode> seen;
        try {
            seen = allPages(
                    cursor -> api.get(key, "/memory?userId=ada&limit=4" + (cursor == null ? "" : "&cursor=" + cursor)),
                    () -> addedWhilePaging.add(api.addFact(key, "ada", "Added between pages " + UUID.randomUUID())));
        } finally {
            paging.set(false);
            writer.join();
        }

        List<String> ids = seen.stream().map(m -> m.path("id").asString()).toList();
        assertThat(ids).doesNotHaveDuplicates();
        assertThat(ids).containsAll(existing);
        assertThat(addedWhilePaging).isNotEmpty();
        assertThat(seen)
                .extracting(m -> Instant.parse(m.path("createdAt").asString()))
                .isSortedAccordingTo(Comparator.reverseOrder());
        assertThat(ids).allMatch(id -> existing.contains(id) || addedWhilePaging.contains(id));
    }

    @Test
    void theLastPageHasNoCursorAndFiltersHoldOnEveryPage() {
        String key = api.newTenant();
        for (int i = 0; i < 6; i++) {
            api.addFact(key, "bo", "Bo fact " + i + " " + tag);
        }
        String session = api.newSession(key, "bo", null);
        api.importTurns(key, session, "hello " + tag, "hi");

        Api.Response first = api.get(key, "/memory?userId=bo&kind=fact&limit=3");
        String cursor = first.text("nextCursor");
        Api.Response second = api.get(key, "/memory?userId=bo&kind=fact&limit=3&cursor=" + cursor);

        assertThat(items(first)).hasSize(3);
        assertThat(items(second))
                .hasSize(3)
                .allSatisfy(m -> assertThat(m.path("kind").asString()).isEqualTo("fact"));
        assertThat(second.body().has("nextCursor")).isFalse();
        assertThat(items(api.get(key, "/memory?userId=bo&limit=100")).size()).isEqualTo(8);
        Api.Response searched = api.get(key, "/memory?userId=bo&query=fact&limit=2");
        assertThat(items(searched)).hasSize(2);
        assertThat(searched.body().has("nextCursor"))
                .as("a ranked search is not paged")
                .isFalse();
    }

    @Test
    void aGarbledOrForeignCursorIsRefusedNamingCursor() {
        String key = api.newTenant();
        String id = api.addFact(key, "cy", "Cy fact " + tag);
        api.addFact(key, "cy", "Cy other fact " + tag);
        api.send("PATCH", "/memory/" + id, key, Json.object("text", "Cy fact, edited " + tag));
        api.send("PATCH", "/memory/" + id, key, Json.object("text", "Cy fact, edited again " + tag));
        api.newSession(key, "cy", null);
        api.newSession(key, "cy", null);
        String memoryCursor = api.get(key, "/memory?userId=cy&limit=1").text("nextCursor");
        String sessionCursor = api.get(key, "/sessions?userId=cy&limit=1").text("nextCursor");
        String revisionCursor =
                api.get(key, "/memory/" + id + "/revisions?limit=1").text("nextCursor");
        String otherMemory = api.addFact(key, "cy", "Cy third fact " + tag);
        String notJson = Base64.getUrlEncoder().withoutPadding().encodeToString("hello".getBytes());
        String wrongShape =
                Base64.getUrlEncoder().withoutPadding().encodeToString("[\"memory\", \"yesterday\", \"x\"]".getBytes());

        for (String garbled : List.of("not-a-cursor", "%25%25", notJson, wrongShape, sessionCursor, revisionCursor)) {
            assertBadCursor(api.get(key, "/memory?userId=cy&cursor=" + garbled));
        }
        assertBadCursor(api.get(key, "/sessions?userId=cy&cursor=" + memoryCursor));
        assertBadCursor(api.get(key, "/memory/" + otherMemory + "/revisions?cursor=" + revisionCursor));
        assertBadCursor(api.get(key, "/memory?userId=cy&query=fact&cursor=" + memoryCursor));
        assertBadCursor(api.get(Api.BOOTSTRAP_KEY, "/admin/jobs/failed?cursor=" + memoryCursor));
    }

    private static void assertBadCursor(Api.Response response) {
        assertThat(response.status()).as(response.raw()).isEqualTo(400);
        assertThat(response.body().path("errors").findValuesAsString("field")).containsExactly("cursor");
    }

    @Test
    void sessionsArePagedNewestFirstWithinTheUserAndTenant() {
        String key = api.newTenant();
        String other = api.newTenant();
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            created.add(api.newSession(key, "dee", null));
        }
        api.newSession(key, "eve", null);
        api.newSession(other, "dee", null);

        List<JsonNode> pages = allPages(
                cursor -> api.get(key, "/sessions?userId=dee&limit=2" + (cursor == null ? "" : "&cursor=" + cursor)),
                () -> api.newSession(key, "dee", null));

        assertThat(pages)
                .extracting(s -> s.path("id").asString())
                .doesNotHaveDuplicates()
                .containsExactlyElementsOf(created.reversed());
        assertThat(pages).allSatisfy(s -> assertThat(s.has("turns")).isFalse());
        assertThat(items(api.get(key, "/sessions?userId=dee"))).hasSize(7);
    }

    @Test
    void aMemorysRevisionsArePagedNewestFirst() {
        String key = api.newTenant();
        String id = api.addFact(key, "fay", "Version 1 " + tag);
        for (int version = 2; version <= 6; version++) {
            api.send("PATCH", "/memory/" + id, key, Json.object("text", "Version " + version + " " + tag));
        }

        List<JsonNode> pages = allPages(
                cursor -> api.get(
                        key, "/memory/" + id + "/revisions?limit=4" + (cursor == null ? "" : "&cursor=" + cursor)),
                () -> {});

        assertThat(pages).extracting(r -> r.path("version").asInt()).containsExactly(6, 5, 4, 3, 2, 1);
        String never = api.addFact(key, "fay", "Never revised " + tag);
        Api.Response single = api.get(key, "/memory/" + never + "/revisions?limit=1");
        assertThat(items(single)).extracting(r -> r.path("version").asInt()).containsExactly(1);
        assertThat(single.body().has("nextCursor")).isFalse();
    }

    @Test
    void failedJobsArePagedNewestFirst() {
        String task = "paging-test-" + tag;
        Instant base = Instant.now().minus(3650, ChronoUnit.DAYS);
        try {
            for (int i = 0; i < 5; i++) {
                // Two at the same instant: the page order goes on by task and instance.
                jdbc.update(
                        "insert into failed_jobs (task_name, task_instance, failures, last_error, failed_at) "
                                + "values (?, ?, 1, 'IllegalStateException: test', ?)",
                        task,
                        "instance-" + i,
                        Timestamp.from(base.plusSeconds(i / 2)));
            }

            List<JsonNode> pages = allPages(
                    cursor -> api.get(
                            Api.BOOTSTRAP_KEY,
                            "/admin/jobs/failed?limit=2" + (cursor == null ? "" : "&cursor=" + cursor)),
                    () -> {});

            assertThat(pages.stream()
                            .filter(j -> j.path("task").asString().equals(task))
                            .map(j -> j.path("instance").asString())
                            .toList())
                    .containsExactly("instance-4", "instance-3", "instance-2", "instance-1", "instance-0");
        } finally {
            jdbc.update("delete from failed_jobs where task_name = ?", task);
        }
    }
}
