package dev.memoir.redaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.memoir.support.Api;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

/**
 * A secret a user pastes (an API key, a private key, a payment card) is masked before anything stores, embeds,
 * exports or sends it: through chat, the OpenAI-compatible endpoint, imported turns, a client's conversation, a
 * memory added by hand and a context request, it is in no table, no export and no model request (issue 43).
 */
class SecretRedactionTest extends IntegrationTest {

    private static final String CARD = "4111 1111 1111 1111";
    private static final String KEY = "sk-proj-Zq8WmX2vLr7TnB4cYd9KpF3hJs6G";
    private static final Pattern CARD_MASK = Pattern.compile("\\[payment-card #([0-9a-f]{8})]");

    @Autowired
    JdbcClient jdbc;

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    private void assertNowhere(String secret) {
        for (String table : List.of("turns", "memory_records", "memory_revisions", "side_messages")) {
            assertThat(jdbc.sql("select count(*) from " + table + " t where t::text like :s")
                            .param("s", "%" + secret + "%")
                            .query(Integer.class)
                            .single())
                    .as(secret + " in " + table)
                    .isZero();
        }
        assertThat(fake.calls(call -> call.body().toString().contains(secret)))
                .as("model requests holding " + secret)
                .isEmpty();
    }

    private static String cardToken(String text) {
        Matcher mask = CARD_MASK.matcher(text);
        assertThat(mask.find()).as(text).isTrue();
        return mask.group(1);
    }

    @Test
    void aPastedCardAndKeyAreMaskedEverywhereTheyCouldBeKept() {
        String key = api.newTenant();
        String user = "sam-" + tag;
        String session = api.newSession(key, user, null);

        Api.Response chat = api.chat(key, session, "Charge my card " + CARD + " with key " + KEY + ", tag " + tag);
        api.importTurns(key, api.newSession(key, user, null), "My api_key = " + KEY + " for staging " + tag, "Noted.");
        Api.Response added = api.addMemory(key, user, "Sam's card is " + CARD.replace(" ", "-") + ".");
        Api.Response conversation = api.send(
                "POST",
                "/conversations/sam:" + tag + "/messages",
                key,
                Json.write(Map.of(
                        "userId",
                        user,
                        "messages",
                        List.of(
                                Map.of("role", "user", "content", "Pay with " + CARD),
                                Map.of("role", "tool", "toolCallId", "c1", "content", "card " + CARD + " charged")))));
        Api.Response context =
                api.send("POST", "/context", key, Json.object("userId", user, "query", "Which card is " + CARD + "?"));
        Api.Response v1 = api.sendWithHeadersAsResponse(
                "POST",
                "/v1/chat/completions",
                key,
                Json.write(Map.of(
                        "user",
                        user,
                        "messages",
                        List.of(
                                Map.of("role", "user", "content", "Earlier I said " + KEY),
                                Map.of("role", "assistant", "content", "OK."),
                                Map.of("role", "user", "content", "And the card " + CARD + "?")))));

        assertThat(chat.status()).as(chat.raw()).isEqualTo(200);
        assertThat(added.status()).as(added.raw()).isEqualTo(201);
        assertThat(conversation.status()).as(conversation.raw()).isEqualTo(201);
        assertThat(context.status()).as(context.raw()).isEqualTo(200);
        assertThat(v1.status()).as(v1.raw()).isEqualTo(200);
        // The same card is the same token wherever it was masked.
        String token = cardToken(added.text("text"));
        String turns = api.get(key, "/sessions/" + session).raw();
        assertThat(cardToken(turns)).isEqualTo(token);
        assertThat(turns).contains("[api-key #");
        assertNowhere(CARD);
        assertNowhere(CARD.replace(" ", ""));
        assertNowhere(KEY);
        String export = api.sendWithHeaders("GET", "/users/" + user + "/export", key, null)
                .body();
        assertThat(export).doesNotContain(CARD).doesNotContain(KEY).contains("[payment-card #" + token + "]");
        // Another tenant's token for the same card says nothing about this one's.
        String otherKey = api.newTenant();
        assertThat(cardToken(api.addMemory(otherKey, "sam", "Card " + CARD).text("text")))
                .isNotEqualTo(token);
    }

    @Test
    void theOpenAiEndpointSeesAConversationItStoredMaskedAsStoredAndAddsNothingTwice() {
        String key = api.newTenant();
        String user = "val-" + tag;
        List<Map<String, String>> history = List.of(
                Map.of("role", "user", "content", "My key is " + KEY + " " + tag),
                Map.of("role", "assistant", "content", "Stored safely."));
        for (String next : List.of("First question?", "Second question?")) {
            List<Map<String, String>> messages = new java.util.ArrayList<>(history);
            messages.add(Map.of("role", "user", "content", next));
            Api.Response answer = api.sendWithHeadersAsResponse(
                    "POST", "/v1/chat/completions", key, Json.write(Map.of("user", user, "messages", messages)));
            assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
        }

        String session = api.get(key, "/sessions?userId=" + user)
                .body()
                .path("items")
                .get(0)
                .path("id")
                .asString();
        List<String> stored = api.get(key, "/sessions/" + session)
                .body()
                .path("turns")
                .valueStream()
                .map(t -> t.path("content").asString())
                .filter(c -> c.contains(tag))
                .toList();
        assertThat(stored).singleElement().asString().contains("[api-key #").doesNotContain(KEY);
    }
}
