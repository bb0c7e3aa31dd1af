package dev.memoir.llm;

import java.util.Optional;

import com.openai.errors.OpenAIServiceException;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the model server said when it refused a request ("model "llama3.1" not found, try pulling it first"), in a
 * form fit for an error response, a job's last error and a log line: one line, at most {@value #MAX_LENGTH}
 * characters, and without any run of the prompt's text, so that no user's words leave in it.
 */
final class ModelServerMessage {

    static final int MAX_LENGTH = 300;

    /** A run of this many characters found in the prompt is taken as quoted from it. */
    private static final int QUOTE_LENGTH = 24;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ModelServerMessage() {}

    /** The server's message in the failure, if it carries one. */
    static Optional<String> of(OpenAIServiceException failure, String prompt) {
        return fromSdkMessage(failure.getMessage() == null ? "" : failure.getMessage(), prompt);
    }

    /**
     * The server's message in the SDK's message of a failed call: "&lt;status&gt;: &lt;the error's message&gt;", or the
     * whole body after the status when the body held no OpenAI error object (vLLM's, say).
     */
    static Optional<String> fromSdkMessage(String message, String prompt) {
        String text = message.replaceFirst("^\\d{3}: ", "");
        text = fromJson(text).orElse(text);
        if (text.isBlank() || text.equals("Unknown")) {
            return Optional.empty();
        }
        return Optional.of(clean(text, prompt));
    }

    /** The message of an error body: OpenAI's {"error": {"message"}}, vLLM's {"message"}, {"error": "..."}, {"detail"}. */
    private static Optional<String> fromJson(String text) {
        if (!text.startsWith("{")) {
            return Optional.empty();
        }
        JsonNode body;
        try {
            body = JSON.readTree(text);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        for (JsonNode candidate : new JsonNode[] {
            body.path("error").path("message"), body.path("message"), body.path("error"), body.path("detail")
        }) {
            if (candidate.isString() && !candidate.asString().isBlank()) {
                return Optional.of(candidate.asString());
            }
        }
        return Optional.empty();
    }

    static String clean(String text, String prompt) {
        String line = text.replaceAll("[\\p{Cntrl}\\s]+", " ").strip();
        String redacted = withoutQuotes(line, prompt);
        return redacted.length() <= MAX_LENGTH ? redacted : redacted.substring(0, MAX_LENGTH - 1) + "…";
    }

    /** The text with every run of at least {@value #QUOTE_LENGTH} characters that also occurs in the prompt cut out. */
    private static String withoutQuotes(String text, String prompt) {
        if (prompt == null || prompt.isEmpty() || text.length() < QUOTE_LENGTH) {
            return text;
        }
        String flatPrompt = prompt.replaceAll("[\\p{Cntrl}\\s]+", " ");
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            int end = i + QUOTE_LENGTH;
            if (end <= text.length() && flatPrompt.contains(text.substring(i, end))) {
                while (end < text.length() && flatPrompt.contains(text.substring(i, end + 1))) {
                    end++;
                }
                out.append("[…]");
                i = end;
            } else {
                out.append(text.charAt(i));
                i++;
            }
        }
        return out.toString();
    }
}
