package dev.memoir.chat;

import java.util.List;

import jakarta.validation.Valid;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.memoir.chat.turn.ChatReply;
import dev.memoir.chat.turn.ChatResponder;
import dev.memoir.chat.turn.ReplyStreams;
import dev.memoir.common.web.ApiException;
import dev.memoir.common.web.Problems;
import dev.memoir.tenant.TenantId;

@RestController
@RequestMapping("/chat")
@Tag(name = "Chat", description = "Talk to the assistant through Memoir, which remembers across sessions")
class ChatController {

    private final ChatResponder responder;
    private final ReplyStreams streams;

    ChatController(ChatResponder responder, ReplyStreams streams) {
        this.responder = responder;
        this.streams = streams;
    }

    private static final String STREAM_EXAMPLE = """
            event: delta
            data: {"text":"Bonjour ! "}

            event: delta
            data: {"text":"Je réponds en français."}

            event: reply
            data: {"reply":"Bonjour ! Je réponds en français.","turnId":"...","userTurnId":"...","memories":[],\
            "remembered":true}
            """;

    @PostMapping
    @Operation(
            summary = "Send a message and get the assistant's reply",
            description = "The message is stored before the model is called. Memoir retrieves the user's memories "
                    + "(with self-reflection), answers with them and the recent dialogue, and queues a conditional "
                    + "memory when the message is worth remembering.\n\n"
                    + "With Accept: text/event-stream the reply streams as server-sent events: `delta` events "
                    + "({\"text\": ...}) carry the reply's text as the model writes it (their concatenation is "
                    + "the reply), then one `reply` event carries the body this endpoint answers otherwise, once "
                    + "the reply is stored. Errors before the first event are answered with their status and a "
                    + "problem detail; a model failure after it ends the stream with an `error` event whose data is "
                    + "the problem detail, and the user's message stays stored. A reasoned reply comes in one "
                    + "delta.",
            responses = {
                @ApiResponse(
                        responseCode = "200",
                        description = "The reply, or its event stream",
                        content = {
                            @Content(
                                    mediaType = "application/json",
                                    schema = @Schema(implementation = ChatReply.class)),
                            @Content(
                                    mediaType = "text/event-stream",
                                    schema =
                                            @Schema(
                                                    type = "string",
                                                    description =
                                                            "Events delta (data {\"text\"}), then reply (data: the reply "
                                                                    + "body) or error (data: a problem detail)"),
                                    examples = @ExampleObject(value = STREAM_EXAMPLE))
                        }),
                @ApiResponse(responseCode = "400", description = "Invalid sessionId or message"),
                @ApiResponse(responseCode = "404", description = "No such session for this tenant"),
                @ApiResponse(responseCode = "409", description = "The session is closed"),
                @ApiResponse(
                        responseCode = "502",
                        description = "The chat model answered with an error "
                                + "(code model-error); the user turn stays stored"),
                @ApiResponse(
                        responseCode = "503",
                        description = "The chat model is unreachable or overloaded " + "(code model-unavailable)"),
                @ApiResponse(
                        responseCode = "504",
                        description = "The chat model did not answer in time "
                                + "(code model-timeout), or a stream did not begin within memoir.chat.stream-timeout "
                                + "(code stream-timeout)")
            })
    ResponseEntity<?> chat(
            TenantId tenant,
            @Parameter(hidden = true) @RequestHeader(name = HttpHeaders.ACCEPT, required = false) String accept,
            @Valid @RequestBody ChatRequest request) {
        String message = request.message().strip();
        if (wantsEventStream(accept)) {
            return streams.stream(
                    responder.prepare(tenant, request.sessionId(), message, request.reasoning()), new ChatEvents());
        }
        return ResponseEntity.ok(responder.respond(tenant, request.sessionId(), message, request.reasoning()));
    }

    /** The event stream is what the client asks for when it names it, unless it prefers JSON by a higher q. */
    static boolean wantsEventStream(String accept) {
        if (accept == null || accept.isBlank()) {
            return false;
        }
        List<MediaType> types;
        try {
            types = MediaType.parseMediaTypes(accept);
        } catch (InvalidMediaTypeException e) {
            return false;
        }
        double stream = quality(types, MediaType.TEXT_EVENT_STREAM);
        return stream > 0 && stream >= quality(types, MediaType.APPLICATION_JSON);
    }

    private static double quality(List<MediaType> types, MediaType wanted) {
        return types.stream()
                .filter(type -> type.getType().equals(wanted.getType())
                        && type.getSubtype().equals(wanted.getSubtype()))
                .mapToDouble(MediaType::getQualityValue)
                .max()
                .orElse(0);
    }

    /** The events of POST /chat: delta, then reply or error. */
    private static final class ChatEvents implements ReplyStreams.Events {

        record Delta(String text) {}

        @Override
        public List<SseEmitter.SseEventBuilder> start() {
            return List.of();
        }

        @Override
        public SseEmitter.SseEventBuilder text(String delta) {
            return SseEmitter.event().name("delta").data(new Delta(delta), MediaType.APPLICATION_JSON);
        }

        @Override
        public List<SseEmitter.SseEventBuilder> end(ChatReply reply) {
            return List.of(SseEmitter.event().name("reply").data(reply, MediaType.APPLICATION_JSON));
        }

        @Override
        public SseEmitter.SseEventBuilder error(ApiException failure) {
            ProblemDetail problem = Problems.of(failure.status(), failure.code(), failure.getMessage());
            return SseEmitter.event().name("error").data(problem, MediaType.APPLICATION_JSON);
        }
    }
}
