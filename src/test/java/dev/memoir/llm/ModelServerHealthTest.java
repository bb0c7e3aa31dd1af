package dev.memoir.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.ai.model.openai.autoconfigure.OpenAiChatProperties;
import org.springframework.ai.model.openai.autoconfigure.OpenAiCommonProperties;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.actuate.endpoint.StatusAggregator;
import org.springframework.boot.health.contributor.Status;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer;
import dev.memoir.support.IntegrationTest;

import tools.jackson.databind.JsonNode;

/** Health tells the operator whether the model server is there and lists the configured model. */
class ModelServerHealthTest extends IntegrationTest {

    @Test
    void theOperatorSeesTheModelServerListingTheConfiguredModel() {
        JsonNode health = api.get(Api.BOOTSTRAP_KEY, "/actuator/health").body();

        JsonNode model = health.path("components").path("modelServer");
        assertThat(model.path("status").asString()).isEqualTo("UP");
        assertThat(model.path("details").path("model").asString()).isEqualTo(FakeOpenAiServer.MODEL);
        assertThat(model.path("details").path("modelListed").asBoolean()).isTrue();
        assertThat(model.path("details").path("baseUrl").asString()).isEqualTo(fake.baseUrl());
    }

    @Test
    void anyoneElseSeesTheStatusAlone() {
        for (String key : new String[] {null, api.newTenant(), "not-a-key"}) {
            Api.Response health = api.get(key, "/actuator/health");

            assertThat(health.status()).as(key).isEqualTo(200);
            assertThat(health.body().path("status").asString()).isEqualTo("UP");
            assertThat(health.body().has("components")).as(key).isFalse();
        }
    }

    @Test
    void anUnreachableModelServerIsUnavailableWithoutTakingTheServiceDown(
            @Autowired OpenAiCommonProperties common,
            @Autowired ChatModelClient client,
            @Autowired StatusAggregator aggregator) {
        OpenAiChatProperties elsewhere = new OpenAiChatProperties();
        elsewhere.setBaseUrl("http://127.0.0.1:9/v1");
        ModelServerHealth unreachable = new ModelServerHealth(common, elsewhere, client);

        var health = unreachable.health();

        assertThat(health.getStatus().getCode()).isEqualTo("UNAVAILABLE");
        assertThat(health.getDetails()).containsKey("error");
        // The service's own status, as the actuator aggregates it, stays UP beside an unavailable model server.
        assertThat(aggregator.getAggregateStatus(Status.UP, health.getStatus()).getCode())
                .isEqualTo("UP");
    }

    @Test
    void aModelIsListedUnderItsNameOrOllamasLatestTag() {
        assertThat(new ModelServerHealth.Check(true, List.of("llama3.1:latest"), null).lists("llama3.1"))
                .isTrue();
        assertThat(new ModelServerHealth.Check(true, List.of("llama3.1"), null).lists("llama3.1:latest"))
                .isTrue();
        assertThat(new ModelServerHealth.Check(true, List.of("llama3.2:latest", "qwen2.5"), null).lists("llama3.1"))
                .isFalse();
    }
}
