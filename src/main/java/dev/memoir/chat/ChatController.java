package dev.memoir.chat;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.memoir.tenant.TenantId;

@RestController
@RequestMapping("/chat")
@Tag(name = "Chat", description = "Talk to the assistant through Memoir, which remembers across sessions")
class ChatController {

    private final ChatResponder responder;

    ChatController(ChatResponder responder) {
        this.responder = responder;
    }

    @PostMapping
    @Operation(summary = "Send a message and get the assistant's reply",
            description = "The message is stored before the model is called. Memoir retrieves the user's memories "
                    + "(with self-reflection), answers with them and the recent dialogue, and queues a conditional "
                    + "memory when the message is worth remembering.",
            responses = {@ApiResponse(responseCode = "200"),
                    @ApiResponse(responseCode = "400", description = "Invalid sessionId or message"),
                    @ApiResponse(responseCode = "404", description = "No such session for this tenant"),
                    @ApiResponse(responseCode = "409", description = "The session is closed"),
                    @ApiResponse(responseCode = "502", description = "The chat model answered with an error "
                            + "(code model-error); the user turn stays stored"),
                    @ApiResponse(responseCode = "503", description = "The chat model is unreachable or overloaded "
                            + "(code model-unavailable)"),
                    @ApiResponse(responseCode = "504", description = "The chat model did not answer in time "
                            + "(code model-timeout)")})
    ChatReply chat(TenantId tenant, @Valid @RequestBody ChatRequest request) {
        return responder.respond(tenant, request.sessionId(), request.message().strip(), request.reasoning());
    }
}
