package dev.memoir.chat;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.memoir.llm.TokenCounter;
import dev.memoir.tenant.TenantId;
import dev.memoir.web.InvalidRequestException;
import dev.memoir.web.TextSafety;

/**
 * OpenAI's chat-completions API with long-term memory: any OpenAI client or chat UI gets Memoir's memory by
 * pointing its base URL at {@code /v1}. Memory is recalled and written exactly as {@code POST /chat} does.
 */
@RestController
@RequestMapping("/v1")
@Tag(name = "OpenAI-compatible", description = "Chat completions with memory for any OpenAI client: base URL "
        + "http://<memoir>/v1, API key = a Memoir tenant key; errors use OpenAI's error body")
class OpenAiCompatibleController {

    private final ConversationSync conversations;
    private final ChatResponder responder;
    private final TokenCounter tokens;
    private final String modelName;

    OpenAiCompatibleController(ConversationSync conversations, ChatResponder responder, TokenCounter tokens,
            @Value("${spring.ai.openai.chat.model:memoir}") String modelName) {
        this.conversations = conversations;
        this.responder = responder;
        this.tokens = tokens;
        this.modelName = modelName;
    }

    record ModelList(String object, List<Model> data) {
    }

    record Model(String id, String object, long created, @com.fasterxml.jackson.annotation.JsonProperty("owned_by")
            String ownedBy) {
    }

    @GetMapping("/models")
    @Operation(summary = "The model Memoir answers with")
    ModelList models(TenantId tenant) {
        return new ModelList("list", List.of(new Model(modelName, "model", 0, "memoir")));
    }

    @PostMapping("/chat/completions")
    @Operation(summary = "Answer the conversation's last user message, with memory",
            description = "The end user is the request's user field or the X-Memoir-User header. The conversation "
                    + "is the X-Memoir-Session header's session, else the user's open session (created on first "
                    + "use). Earlier messages Memoir has not stored yet are stored as turns (never twice); the last "
                    + "one is answered like POST /chat: memory recalled, reply and remember decision in one model "
                    + "call, the turns stored, memory written in the background.",
            responses = {@ApiResponse(responseCode = "200"),
                    @ApiResponse(responseCode = "400", description = "No end user, the last message is not the "
                            + "user's, or stream is true (not supported yet)"),
                    @ApiResponse(responseCode = "404", description = "No such session for this tenant"),
                    @ApiResponse(responseCode = "409", description = "The session is closed"),
                    @ApiResponse(responseCode = "502", description = "The chat model failed or answered unusably")})
    Object complete(TenantId tenant,
            @Parameter(description = "The end user, when the body has no user field")
            @RequestHeader(name = "X-Memoir-User", required = false) String userHeader,
            @Parameter(description = "The Memoir session to continue")
            @RequestHeader(name = "X-Memoir-Session", required = false) UUID sessionId,
            @Valid @RequestBody OpenAiChatRequest request) {
        if (Boolean.TRUE.equals(request.stream())) {
            // Refused rather than answered as one JSON body, which a client waiting for events could not read.
            throw new InvalidRequestException("stream", "streaming is not supported yet: send stream false or omit it");
        }
        String userId = request.user() != null ? request.user() : userHeader;
        if (userId != null && (userId.length() > 200 || !TextSafety.isCanonicalIdentifier(userId))) {
            throw new InvalidRequestException(request.user() != null ? "user" : "X-Memoir-User",
                    "must be 1 to 200 visible characters, without surrounding white space");
        }
        ConversationSync.Synced synced = conversations.sync(tenant, userId, sessionId, request.messages());
        ChatReply reply = responder.respond(tenant, synced.session().id(), synced.message(), false);
        int prompt = tokens.count(synced.message());
        int completion = tokens.count(reply.reply());
        return new OpenAiChatCompletion("chatcmpl-" + reply.turnId(), "chat.completion",
                Instant.now().getEpochSecond(), modelName,
                List.of(new OpenAiChatCompletion.Choice(0,
                        new OpenAiChatCompletion.Message("assistant", reply.reply()), "stop")),
                new OpenAiChatCompletion.Usage(prompt, completion, prompt + completion),
                new OpenAiChatCompletion.Memoir(synced.session().id(), reply.userTurnId(), reply.turnId(),
                        reply.remembered(), reply.memories()));
    }
}
