package dev.memoir.writing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import dev.memoir.llm.TokenCounter;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.ChatCall;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;

import tools.jackson.databind.JsonNode;

/**
 * A session longer than one prompt can hold (memoir.writing.part-tokens is 1000 in the tests) is read in parts by
 * every whole-session step, and what the parts yield still lands in memory.
 */
class LongSessionTest extends IntegrationTest {

    @Autowired
    TokenCounter tokens;

    private final String tag = UUID.randomUUID().toString();

    @Test
    void summaryTopicsAndTheRecursiveSummaryReadALongSessionInPartsThatEachFitThePrompt() {
        String key = api.newTenant();
        String session = api.newSession(key, "kai", "{\"strategy\": \"all\"}");
        String[] turns = new String[40];
        for (int i = 0; i < turns.length; i++) {
            turns[i] = "Turn " + i + " " + tag + ": we talked at length about rivers, canoes, the weather on the "
                    + "lake, the old boathouse and which paddles last longest in cold water this year.";
        }
        turns[35] = "I bought a sea kayak last week, bright orange " + tag;
        api.importTurns(key, session, turns);
        onModelCall(
                call -> call.is(Step.TOPIC_EXTRACTION)
                        && call.mentions("[Turn 35]")
                        && call.mentions("personal summaries of the USER from"),
                call -> Answer.json("{\"extracted_memories\": [{\"summary\": \"USER owns an orange sea kayak.\", "
                        + "\"reference\": [35, 2]}]}"));
        int sessionTokens = Arrays.stream(turns).mapToInt(tokens::count).sum();

        api.close(key, session);

        eventually()
                .until(() -> !ofKind(api.get(key, "/memory?userId=kai"), "summary")
                                .isEmpty()
                        && !ofKind(api.get(key, "/memory?userId=kai&kind=recursive_summary"), "recursive_summary")
                                .isEmpty()
                        && ofKind(api.get(key, "/memory?userId=kai&kind=topic"), "topic").stream()
                                .anyMatch(m -> m.path("text").asString().contains("kayak"))
                        // The topic job stores the user's topics before it asks about the assistant's: wait for every
                        // job.
                        && api.get(key, "/sessions/" + session)
                                .body()
                                .path("jobs")
                                .valueStream()
                                .allMatch(job -> job.path("state").asString().equals("done")));
        assertThat(sessionTokens).as("the session is longer than two parts").isGreaterThan(2000);
        for (Step step : List.of(Step.SESSION_SUMMARY, Step.RECURSIVE_SUMMARY, Step.TOPIC_EXTRACTION)) {
            List<ChatCall> calls = fake.calls(c -> c.is(step) && c.mentions(tag));
            assertThat(calls.size()).as("%s calls", step).isGreaterThanOrEqualTo(step == Step.TOPIC_EXTRACTION ? 6 : 3);
            assertThat(calls)
                    .as("%s prompts", step)
                    .allSatisfy(call ->
                            assertThat(tokens.count(call.lastUserMessage())).isLessThan(1000 + 600));
        }
        // A later part's summary sees what the earlier parts said.
        assertThat(fake.calls(c -> c.is(Step.SESSION_SUMMARY) && c.mentions(tag))
                        .getLast()
                        .lastUserMessage())
                .contains("The user and the assistant talked.");
        JsonNode kayak = ofKind(api.get(key, "/memory?userId=kai&kind=topic"), "topic").stream()
                .filter(m -> m.path("text").asString().contains("kayak"))
                .findFirst()
                .orElseThrow();
        String turn35 = api.get(key, "/sessions/" + session)
                .body()
                .path("turns")
                .get(35)
                .path("id")
                .asString();
        assertThat(kayak.path("provenance").path("turnIds").valueStream().map(JsonNode::asString))
                .as("references outside the part are dropped, the part's own kept")
                .containsExactly(turn35);
    }
}
