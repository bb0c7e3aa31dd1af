package dev.memoir.user;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.IntegrationTest;

import tools.jackson.databind.JsonNode;

class UserListTest extends IntegrationTest {

    private List<JsonNode> allPages(String key, String query, int limit) {
        List<JsonNode> users = new ArrayList<>();
        String cursor = null;
        do {
            Api.Response page = api.get(
                    key,
                    "/users?limit=" + limit + (query == null ? "" : "&query=" + query)
                            + (cursor == null ? "" : "&cursor=" + cursor));
            assertThat(page.status()).as(page.raw()).isEqualTo(200);
            assertThat(items(page)).hasSizeLessThanOrEqualTo(limit);
            users.addAll(items(page));
            cursor = page.body().has("nextCursor") ? page.text("nextCursor") : null;
        } while (cursor != null);
        return users;
    }

    @Test
    void theTenantsUsersAreListedWithTheirSessionAndMemoryCountsAPageAtATime() {
        String key = api.newTenant();
        String other = api.newTenant();
        // anna: two sessions with turns; bert: facts only; cara: an empty session; dave and emma: both.
        String annaFirst = api.newSession(key, "anna", null);
        api.importTurns(key, annaFirst, "I like tea", "Noted.");
        api.newSession(key, "anna", null);
        api.addFact(key, "bert", "Bert has a cat");
        api.addFact(key, "bert", "Bert plays chess");
        api.addFact(key, "bert", "Bert lives in Ghent");
        api.newSession(key, "cara", null);
        api.importTurns(key, api.newSession(key, "dave", null), "hello");
        api.addFact(key, "emma", "Emma is a nurse");
        api.newSession(key, "emma", null);
        api.newSession(other, "fred", null);
        api.addFact(other, "anna", "Another tenant's anna");

        List<JsonNode> users = allPages(key, null, 2);

        assertThat(users)
                .extracting(u -> u.path("userId").asString())
                .containsExactly("anna", "bert", "cara", "dave", "emma");
        Map<String, JsonNode> byId =
                users.stream().collect(Collectors.toMap(u -> u.path("userId").asString(), Function.identity()));
        assertThat(counts(byId.get("anna"))).containsExactly(2L, 2L);
        assertThat(counts(byId.get("bert"))).containsExactly(0L, 3L);
        assertThat(counts(byId.get("cara"))).containsExactly(1L, 0L);
        assertThat(counts(byId.get("dave"))).containsExactly(1L, 1L);
        assertThat(counts(byId.get("emma"))).containsExactly(1L, 1L);
        assertThat(users)
                .allSatisfy(u -> assertThat(Instant.parse(u.path("lastActiveAt").asString()))
                        .isBefore(Instant.now().plusSeconds(1)));
        assertThat(items(api.get(other, "/users")))
                .extracting(u -> u.path("userId").asString())
                .containsExactly("anna", "fred");
        assertThat(api.get(key, "/users").body().has("nextCursor")).isFalse();
    }

    private static List<Long> counts(JsonNode user) {
        return List.of(user.path("sessions").asLong(), user.path("memories").asLong());
    }

    @Test
    void aQueryFindsUsersWhoseIdContainsItIgnoringCase() {
        String key = api.newTenant();
        for (String user : List.of("alice.smith", "bob", "Malice", "alicia", "carol")) {
            api.newSession(key, user, null);
        }
        api.addFact(key, "ALICE-2", "A fact");

        List<JsonNode> found = allPages(key, "ALIC", 1);

        assertThat(found)
                .extracting(u -> u.path("userId").asString())
                .containsExactlyInAnyOrder("alice.smith", "Malice", "alicia", "ALICE-2");
        assertThat(items(api.get(key, "/users?query=zzz"))).isEmpty();
    }

    @Test
    void anErasedUserLeavesTheListAndABadCursorIsRefused() {
        String key = api.newTenant();
        api.newSession(key, "gina", null);
        api.addFact(key, "hugo", "Hugo rows");
        api.send("DELETE", "/memory?userId=gina", key, null);

        assertThat(items(api.get(key, "/users")))
                .extracting(u -> u.path("userId").asString())
                .containsExactly("hugo");
        Api.Response refused = api.get(key, "/users?cursor=bm90LWEtY3Vyc29y");
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body().path("errors").findValuesAsString("field")).containsExactly("cursor");
    }
}
