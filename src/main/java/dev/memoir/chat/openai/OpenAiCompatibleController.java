package dev.memoir.chat.openai;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.validation.Valid;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import com.fasterxml.jackson.annotation.JsonProperty;

import dev.memoir.chat.turn.ChatReply;
import dev.memoir.chat.turn.ChatResponder;
import dev.memoir.chat.turn.ReplyStreams;
import dev.memoir.common.web.ApiException;
import dev.memoir.common.web.InvalidRequestException;
import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.common.wire.TextSafety;
import dev.memoir.llm.ChatModelClient;
import dev.memoir.llm.TokenCounter;
import dev.memoir.tenant.TenantId;

/**
 * OpenAI's chat-completions API with long-term memory: any OpenAI client or chat UI gets Memoir's memory by
 * pointing its base URL at {@code /v1}. Memory is recalled and written exactly as {@code POST /chat} does.
 */
@RestController
@RequestMapping("/v1")
@Tag(
        name = "OpenAI-compatible",
        description = "Chat completions with memory for any OpenAI client: base URL "
                + "http://<memoir>/v1, API key = a Memoir tenant key; errors use OpenAI's error body")
class OpenAiCompatibleController {

    private final ConversationSync conversations;
    private final ChatResponder responder;
    private final ReplyStreams streams;
    private final TokenCounter tokens;
    private final ChatModelClient models;

    OpenAiCompatibleController(
            ConversationSync conversations,
            ChatResponder responder,
            ReplyStreams streams,
            TokenCounter tokens,
            ChatModelClient models) {
        this.streams = streams;
        this.conversations = conversations;
        this.responder = responder;
        this.tokens = tokens;
        this.models = models;
    }

    record ModelList(String object, List<Model> data) {}

    record Model(
            String id,
            String object,
            long created,
            @JsonProperty("owned_by") String ownedBy) {}

    @GetMapping("/models")
    @Operation(summary = "The model Memoir answers with, as the model server names it")
    ModelList models(TenantId tenant) {
        return new ModelList("list", List.of(new Model(models.answeringModel(), "model", 0, "memoir")));
    }

    @PostMapping("/chat/completions")
    @Operation(
            summary = "Answer the conversation's last user message, with memory",
            description = "The end user is the request's user field or the X-Memoir-User header. The conversation "
                    + "is the X-Memoir-Session header's session, else the user's open session (created on first "
                    + "use). Earlier messages Memoir has not stored yet are stored as turns (never twice); the last "
                    + "one is answered like POST /chat: memory recalled, reply and remember decision in one model "
                    + "call, the turns stored, memory written in the background.\n\n"
                    + "With \"stream\": true the answer is OpenAI's event stream (text/event-stream): data: lines "
                    + "holding chat.completion.chunk objects, the first with delta.role assistant, then the reply's "
                    + "text in delta.content pieces as the model writes it, then one with finish_reason stop (and "
                    + "the memoir field: session, turns, memories), with stream_options.include_usage one more "
                    + "with the usage and no choices, and last data: [DONE]. The user's message is stored before "
                    + "the stream starts. Errors before the first event are answered with their status and "
                    + "OpenAI's error body; a model failure after it ends the stream with data: {\"error\": "
                    + "{\"message\", \"type\", \"code\", \"param\"}} and no [DONE], the user's message stays "
                    + "stored.",
            responses = {
                @ApiResponse(
                        responseCode = "200",
                        description = "The completion, or with stream true its " + "event stream",
                        content = {
                            @Content(
                                    mediaType = "application/json",
                                    schema = @Schema(implementation = OpenAiChatCompletion.class)),
                            @Content(
                                    mediaType = "text/event-stream",
                                    schema =
                                            @Schema(
                                                    type = "string",
                                                    description = "data: {chat.completion.chunk}, ..., data: [DONE]"),
                                    examples = @ExampleObject(value = STREAM_EXAMPLE))
                        }),
                @ApiResponse(
                        responseCode = "400",
                        description = "No end user, or the last message is not the " + "user's"),
                @ApiResponse(responseCode = "404", description = "No such session for this tenant"),
                @ApiResponse(responseCode = "409", description = "The session is closed"),
                @ApiResponse(responseCode = "502", description = "The chat model failed or answered unusably"),
                @ApiResponse(responseCode = "503", description = "The chat model is unreachable or overloaded"),
                @ApiResponse(
                        responseCode = "504",
                        description = "The chat model did not answer in time, or a "
                                + "stream did not begin within memoir.chat.stream-timeout")
            })
    ResponseEntity<?> complete(
            TenantId tenant,
            @Parameter(description = "The end user, when the body has no user field")
                    @RequestHeader(name = "X-Memoir-User", required = false)
                    String userHeader,
            @Parameter(description = "The Memoir session to continue")
                    @RequestHeader(name = "X-Memoir-Session", required = false)
                    UUID sessionId,
            @Valid @RequestBody OpenAiChatRequest request) {
        String userId = request.user() != null ? request.user() : userHeader;
        if (userId != null
                && (userId.length() > FieldConstraints.USER_ID || !TextSafety.isCanonicalIdentifier(userId))) {
            throw new InvalidRequestException(
                    request.user() != null ? "user" : "X-Memoir-User",
                    "must be 1 to " + FieldConstraints.USER_ID
                            + " visible characters, without surrounding white space");
        }
        ConversationSync.Synced synced = conversations.sync(tenant, userId, sessionId, request.messages());
        if (Boolean.TRUE.equals(request.stream())) {
            ChatResponder.PreparedTurn turn =
                    responder.prepare(tenant, synced.session().id(), synced.message(), false);
            return streams.stream(turn, new ChunkEvents(turn, request.includeUsage()));
        }
        ChatReply reply = responder.respond(tenant, synced.session().id(), synced.message(), false);
        int prompt = tokens.count(synced.message());
        int completion = tokens.count(reply.reply());
        return ResponseEntity.ok(new OpenAiChatCompletion(
                "chatcmpl-" + reply.turnId(),
                "chat.completion",
                Instant.now().getEpochSecond(),
                reply.model(),
                List.of(new OpenAiChatCompletion.Choice(
                        0, new OpenAiChatCompletion.Message("assistant", reply.reply()), "stop")),
                new OpenAiChatCompletion.Usage(prompt, completion, prompt + completion),
                memoir(synced.session().id(), reply)));
    }

    private static OpenAiChatCompletion.Memoir memoir(UUID sessionId, ChatReply reply) {
        return new OpenAiChatCompletion.Memoir(
                sessionId, reply.userTurnId(), reply.turnId(), reply.remembered(), reply.memories());
    }

    private static final String STREAM_EXAMPLE = """
            data: {"id":"chatcmpl-1f0e...","object":"chat.completion.chunk","created":1760000000,"model":"llama3.1",\
            "choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}

            data: {"id":"chatcmpl-1f0e...","object":"chat.completion.chunk","created":1760000000,"model":"llama3.1",\
            "choices":[{"index":0,"delta":{"content":"You live in "},"finish_reason":null}]}

            data: {"id":"chatcmpl-1f0e...","object":"chat.completion.chunk","created":1760000000,"model":"llama3.1",\
            "choices":[{"index":0,"delta":{"content":"Porto."},"finish_reason":null}]}

            data: {"id":"chatcmpl-1f0e...","object":"chat.completion.chunk","created":1760000000,"model":"llama3.1",\
            "choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"memoir":{"sessionId":"...",\
            "userTurnId":"...","turnId":"...","remembered":false,"memories":[]}}

            data: [DONE]
            """;

    /**
     * OpenAI's chunks. Every chunk has the same id, made of the user turn's id since the reply's turn is stored
     * only at the end; the finishing chunk's {@code memoir} field names both turns.
     */
    private final class ChunkEvents implements ReplyStreams.Events {

        private final ChatResponder.PreparedTurn turn;
        private final boolean includeUsage;
        private final String id;
        private final long created = Instant.now().getEpochSecond();
        /** Named once the model's answer begins, so that every chunk of the stream names the same model. */
        private String model;

        ChunkEvents(ChatResponder.PreparedTurn turn, boolean includeUsage) {
            this.turn = turn;
            this.includeUsage = includeUsage;
            this.id = "chatcmpl-" + turn.userTurn().id();
        }

        private SseEmitter.SseEventBuilder chunk(OpenAiChatCompletionChunk.Delta delta, String finishReason) {
            return data(new OpenAiChatCompletionChunk(
                    id, created, model(), List.of(new OpenAiChatCompletionChunk.Choice(0, delta, finishReason))));
        }

        private String model() {
            if (model == null) {
                model = models.answeringModel();
            }
            return model;
        }

        private static SseEmitter.SseEventBuilder data(Object json) {
            return SseEmitter.event().data(json, MediaType.APPLICATION_JSON);
        }

        @Override
        public List<SseEmitter.SseEventBuilder> start() {
            return List.of(chunk(new OpenAiChatCompletionChunk.Delta("assistant", ""), null));
        }

        @Override
        public SseEmitter.SseEventBuilder text(String delta) {
            return chunk(new OpenAiChatCompletionChunk.Delta(null, delta), null);
        }

        @Override
        public List<SseEmitter.SseEventBuilder> end(ChatReply reply) {
            List<SseEmitter.SseEventBuilder> events = new ArrayList<>();
            events.add(data(new OpenAiChatCompletionChunk(
                    id,
                    "chat.completion.chunk",
                    created,
                    model(),
                    List.of(new OpenAiChatCompletionChunk.Choice(
                            0, new OpenAiChatCompletionChunk.Delta(null, null), "stop")),
                    null,
                    memoir(turn.session().id(), reply))));
            if (includeUsage) {
                int prompt = tokens.count(turn.userTurn().content());
                int completion = tokens.count(reply.reply());
                events.add(data(new OpenAiChatCompletionChunk(
                        id,
                        "chat.completion.chunk",
                        created,
                        model(),
                        List.of(),
                        new OpenAiChatCompletion.Usage(prompt, completion, prompt + completion),
                        null)));
            }
            events.add(SseEmitter.event().data("[DONE]"));
            return events;
        }

        @Override
        public SseEmitter.SseEventBuilder error(ApiException failure) {
            return data(OpenAiErrors.body(failure.status(), failure.code(), failure.getMessage(), null));
        }
    }
}
