package dev.memoir.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

import tools.jackson.databind.JsonNode;

/**
 * A user's standing instructions reach every reply, whatever the message: given once, they are in the reply request
 * many sessions later on a question that has nothing to do with them; a later instruction that contradicts one
 * replaces it (issue 41).
 */
class StandingInstructionsTest extends IntegrationTest {

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    private List<JsonNode> instructions(String key, String userId, boolean includeSuperseded) {
        return items(api.get(
                key,
                "/memory?userId=" + userId + "&kind=instruction"
                        + (includeSuperseded ? "&includeSuperseded=true" : "")));
    }

    /** The reply prompt's section of standing instructions, up to the blank line after it. */
    private static String instructionsSection(String systemPrompt) {
        String header = "[The user's standing instructions and preferences]:\n";
        int start = systemPrompt.indexOf(header);
        assertThat(start).as("the prompt has the section: %s", systemPrompt).isNotNegative();
        int end = systemPrompt.indexOf("\n\n", start);
        return systemPrompt.substring(start + header.length(), end < 0 ? systemPrompt.length() : end);
    }

    private String replyRequestFor(String key, String userId, String message) {
        String session = api.newSession(key, userId, null);
        int before = fake.calls().size();
        Api.Response reply = api.chat(key, session, message);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        return fake.calls().subList(before, fake.calls().size()).stream()
                .filter(call -> call.is(Step.REPLY) && call.lastUserMessage().equals(message))
                .findFirst()
                .orElseThrow()
                .systemPrompt();
    }

    @Test
    void anInstructionGivenInTheFirstSessionIsInTheReplyRequestOfTheThirtiethAndALaterOneReplacesIt() {
        String key = api.newTenant();
        String user = "ivy-" + tag;
        String typescript = "Always answer with TypeScript examples " + tag + ".";
        Api.Response first =
                api.importTurns(key, api.newSession(key, user, null), "I build web apps. " + typescript, "Noted!");
        assertThat(first.status()).as(first.raw()).isEqualTo(201);
        for (int i = 2; i < 30; i++) {
            api.importTurns(
                    key,
                    api.newSession(key, user, null),
                    "Day " + i + ": I went hiking and saw " + i + " birds.",
                    "How lovely, " + i + " birds!");
        }
        eventually().until(() -> instructions(key, user, false).size() == 1);
        assertThat(instructions(key, user, false).getFirst().path("text").asString())
                .isEqualTo(typescript);

        String unrelated = replyRequestFor(key, user, "What is a good name for a cat? " + tag);

        assertThat(unrelated)
                .contains("[The user's standing instructions and preferences]")
                .contains(typescript);

        String go = "From now on, use Go in every example instead of TypeScript " + tag + ".";
        onModelCall(
                call -> call.is(Step.SUPERSESSION) && call.mentions("use Go in every example"),
                call -> Answer.content(FakeOpenAiServer.relations(call, "TypeScript examples", "contradicts")));
        api.importTurns(key, api.newSession(key, user, null), go, "Understood.");

        eventually()
                .until(() -> instructions(key, user, false).stream()
                        .map(m -> m.path("text").asString())
                        .toList()
                        .equals(List.of(go)));
        assertThat(instructions(key, user, true)).hasSize(2);
        String later = replyRequestFor(key, user, "Any tips for a birthday party? " + tag);
        // The first session's turn still says it (a history memory is the record of what was said); as a standing
        // instruction, only the later one holds.
        assertThat(instructionsSection(later)).contains(go).doesNotContain(typescript);
    }

    @Test
    void aClientAddsAStandingInstructionAndEveryReplyShowsIt() {
        String key = api.newTenant();
        String user = "jon-" + tag;
        String metric = "Give every measure in metric units " + tag + ".";
        Api.Response added = api.send(
                "POST",
                "/memory",
                key,
                Json.object("userId", user, "text", metric, "kind", "instruction", "supersedes", List.of()));
        assertThat(added.status()).as(added.raw()).isEqualTo(201);
        assertThat(added.text("kind")).isEqualTo("instruction");

        assertThat(instructionsSection(replyRequestFor(key, user, "How tall is a giraffe? " + tag)))
                .contains(metric);
    }

    @Test
    void theSummaryOfAClosedSessionWritesTheInstructionsItFoundRestingOnTheTurnThatStatesThem() {
        String key = api.newTenant();
        String user = "kai-" + tag;
        // No form the detector knows: only the model step finds it.
        String kotlin = "My team ships Kotlin, so stick to Kotlin for the code you show me " + tag + ".";
        String session = api.newSession(key, user, null);
        api.importTurns(key, session, "Hello, I work on Android apps " + tag + ".", "Hi!", kotlin, "Will do.");
        assertThat(instructions(key, user, false)).isEmpty();
        onModelCall(
                call -> call.is(Step.SESSION_SUMMARY) && call.mentions("stick to Kotlin"),
                call -> Answer.sessionSummary(
                        "The user builds Android apps " + tag + ".",
                        "Stick to Kotlin for the code you show me " + tag + "."));

        assertThat(api.close(key, session).status()).isEqualTo(202);

        eventually().until(() -> instructions(key, user, false).size() == 1);
        JsonNode instruction = instructions(key, user, false).getFirst();
        assertThat(instruction.path("text").asString())
                .isEqualTo("Stick to Kotlin for the code you show me " + tag + ".");
        JsonNode turns = api.get(key, "/sessions/" + session).body().path("turns");
        String statingTurn = turns.valueStream()
                .filter(turn -> turn.path("content").asString().equals(kotlin))
                .findFirst()
                .orElseThrow()
                .path("id")
                .asString();
        assertThat(instruction.path("provenance").path("turnIds").get(0).asString())
                .isEqualTo(statingTurn);
        assertThat(instructionsSection(replyRequestFor(key, user, "What should I cook tonight? " + tag)))
                .contains("Stick to Kotlin");
    }

    @Test
    void aRememberedMessageWritesTheStandingInstructionItsConditionalNoteFound() {
        String key = api.newTenant();
        String user = "lia-" + tag;
        String message = "Our servers run on-premises, so keep suggestions away from hosted services " + tag + ".";
        onModelCall(
                call -> call.is(Step.REPLY) && call.lastUserMessage().equals(message),
                call -> Answer.json("{\"reply\": \"Understood.\", \"remember\": true}"));
        onModelCall(
                call -> call.is(Step.CONDITIONAL_MEMORY) && call.mentions("hosted services"),
                call -> Answer.json("{\"context\": \"NaN\", \"summary\": \"The user runs servers on-premises.\", "
                        + "\"note\": \"The user runs servers on-premises.\", "
                        + "\"instruction\": \"Keep suggestions away from hosted services " + tag + ".\"}"));
        String session = api.newSession(key, user, null);

        Api.Response reply = api.chat(key, session, message);

        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        eventually().until(() -> instructions(key, user, false).size() == 1);
        assertThat(instructions(key, user, false).getFirst().path("text").asString())
                .isEqualTo("Keep suggestions away from hosted services " + tag + ".");
    }
}
