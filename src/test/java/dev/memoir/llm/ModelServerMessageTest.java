package dev.memoir.llm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.openai.core.http.Headers;
import com.openai.errors.BadRequestException;
import com.openai.errors.NotFoundException;
import com.openai.models.ErrorObject;

class ModelServerMessageTest {

    @Test
    void readsOpenAisOllamasAndLlamaCppsErrorObject() {
        NotFoundException ollama = NotFoundException.builder()
                .headers(Headers.builder().build())
                .error(ErrorObject.builder()
                        .message("model \"llama3.1\" not found, try pulling it first")
                        .type("api_error")
                        .code((String) null)
                        .param((String) null)
                        .build())
                .build();

        assertThat(ModelServerMessage.of(ollama, "prompt"))
                .contains("model \"llama3.1\" not found, try pulling it first");
    }

    @Test
    void readsVllmsAndOtherBodiesWithoutAnErrorObject() {
        assertThat(ModelServerMessage.fromSdkMessage(
                        "404: {\"object\":\"error\",\"message\":\"The model "
                                + "`llama3.1` does not exist.\",\"type\":\"NotFoundError\",\"param\":null,\"code\":404}",
                        ""))
                .contains("The model `llama3.1` does not exist.");
        assertThat(ModelServerMessage.fromSdkMessage("500: {\"error\": \"out of memory\"}", ""))
                .contains("out of memory");
        assertThat(ModelServerMessage.fromSdkMessage("422: {\"detail\": \"temperature must be >= 0\"}", ""))
                .contains("temperature must be >= 0");
        assertThat(ModelServerMessage.fromSdkMessage("500: Unknown", "")).isEmpty();
    }

    @Test
    void keepsOneLineOfBoundedLengthWithoutThePromptsWords() {
        String prompt = "User: my bank password hint is the name of my first cat, Whiskers the Third";
        String server = "Invalid request:\n\tcould not parse 'my bank password hint is the name of my first cat' "
                + "x".repeat(500);

        String cleaned = ModelServerMessage.clean(server, prompt);

        assertThat(cleaned)
                .startsWith("Invalid request: could not parse '[…]' ")
                .doesNotContain("password")
                .doesNotContain("\n")
                .hasSize(ModelServerMessage.MAX_LENGTH)
                .endsWith("…");
    }

    @Test
    void aStatusWithoutAMessageSaysNothing() {
        BadRequestException bare =
                BadRequestException.builder().headers(Headers.builder().build()).build();

        assertThat(ModelServerMessage.of(bare, "prompt")).isEmpty();
    }
}
