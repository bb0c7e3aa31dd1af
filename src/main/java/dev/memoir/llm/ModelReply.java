package dev.memoir.llm;

import org.springframework.ai.chat.model.ChatResponse;

/**
 * What a chat response (or a streamed answer's chunk) carries for Memoir: its text, empty when it has none, and the
 * model the server named, null when it named none.
 */
record ModelReply(String text, String model) {

    static ModelReply of(ChatResponse response) {
        return new ModelReply(textOf(response), modelOf(response));
    }

    private static String textOf(ChatResponse response) {
        if (response == null
                || response.getResult() == null
                || response.getResult().getOutput() == null) {
            return "";
        }
        String text = response.getResult().getOutput().getText();
        return text == null ? "" : text;
    }

    private static String modelOf(ChatResponse response) {
        if (response == null || response.getMetadata() == null) {
            return null;
        }
        String model = response.getMetadata().getModel();
        return model == null || model.isBlank() ? null : model;
    }
}
