package dev.memoir.llm;

import java.util.Iterator;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatResponse;

/**
 * An answer read as the model streams it, each piece of text handed on as it comes: so far its text, the chunk
 * that reported token counts and the model the chunks named.
 */
final class StreamedAnswer {

    private final Consumer<String> onText;
    private final Consumer<String> onModel;
    private final StringBuilder text = new StringBuilder();
    private ChatResponse usage;
    private String model;

    /** {@code onModel} hears of each model a chunk names; {@code onText} gets each piece of text. */
    StreamedAnswer(Consumer<String> onText, Consumer<String> onModel) {
        this.onText = onText;
        this.onModel = onModel;
    }

    /**
     * Reads the stream {@code open} gives to its end, on the calling thread. A failure of the model (to open the
     * stream or in it) becomes what {@code failed} makes of it; one of {@code onText} is let through as it is.
     */
    StreamedAnswer read(Supplier<Stream<ChatResponse>> open, Function<RuntimeException, ModelCallException> failed) {
        Stream<ChatResponse> stream;
        try {
            stream = open.get();
        } catch (RuntimeException e) {
            throw failed.apply(e);
        }
        // Closing the stream cancels the model's answer, should onText fail half way.
        try (stream) {
            Iterator<ChatResponse> chunks = stream.iterator();
            while (true) {
                ChatResponse chunk;
                try {
                    if (!chunks.hasNext()) {
                        return this;
                    }
                    chunk = chunks.next();
                } catch (RuntimeException e) {
                    throw failed.apply(e);
                }
                take(chunk);
            }
        }
    }

    /** Whether no text was handed on yet: once some was, the request must not be sent again. */
    boolean nothingHandedOn() {
        return text.isEmpty();
    }

    String text() {
        return text.toString();
    }

    /** The model the chunks named, null if none did. */
    String model() {
        return model;
    }

    /** The chunk that reported the answer's token counts, null if none did. */
    ChatResponse usage() {
        return usage;
    }

    private void take(ChatResponse chunk) {
        if (hasUsage(chunk)) {
            usage = chunk;
        }
        ModelReply reply = ModelReply.of(chunk);
        if (reply.model() != null) {
            model = reply.model();
            onModel.accept(model);
        }
        if (!reply.text().isEmpty()) {
            text.append(reply.text());
            onText.accept(reply.text());
        }
    }

    /** A streamed answer reports its token counts in one of its last chunks only. */
    private static boolean hasUsage(ChatResponse response) {
        if (response == null
                || response.getMetadata() == null
                || response.getMetadata().getUsage() == null) {
            return false;
        }
        Usage usage = response.getMetadata().getUsage();
        return usage.getPromptTokens() != null && usage.getPromptTokens() > 0
                || usage.getCompletionTokens() != null && usage.getCompletionTokens() > 0;
    }
}
