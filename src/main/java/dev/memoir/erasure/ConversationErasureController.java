package dev.memoir.erasure;

import java.util.List;
import java.util.UUID;

import jakarta.validation.constraints.Size;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import dev.memoir.common.web.NotFoundException;
import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.session.SessionService;
import dev.memoir.tenant.TenantId;

@RestController
@Tag(name = "Conversations")
class ConversationErasureController {

    private final SessionService sessions;
    private final SessionEraser eraser;

    ConversationErasureController(SessionService sessions, SessionEraser eraser) {
        this.sessions = sessions;
        this.eraser = eraser;
    }

    @DeleteMapping("/conversations/{conversationId}")
    @Operation(
            summary = "Delete a conversation with everything derived from it alone",
            description = "Deletes each session the conversation went on in as DELETE /sessions/{id} does: its "
                    + "turns and side messages, the memories written from it alone, the feedback and traces of its "
                    + "turns. Each session goes in a transaction of its own: after a failure, the same call deletes "
                    + "what is left.",
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(responseCode = "404", description = "No such conversation for this tenant")
            })
    ConversationErasure delete(
            TenantId tenant,
            @PathVariable @Size(min = 1, max = FieldConstraints.CONVERSATION_ID) String conversationId) {
        List<UUID> parts = sessions.sessionsOfConversation(tenant, conversationId);
        if (parts.isEmpty()) {
            throw new NotFoundException("Conversation", conversationId);
        }
        return new ConversationErasure(
                conversationId,
                parts.stream().map(id -> eraser.erase(tenant, id)).toList());
    }
}
