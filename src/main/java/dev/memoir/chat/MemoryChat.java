package dev.memoir.chat;

import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Service;

import dev.memoir.chat.turn.ChatReply;
import dev.memoir.chat.turn.ChatResponder;
import dev.memoir.common.web.InvalidRequestException;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.TurnOrigin;
import dev.memoir.session.SessionService;
import dev.memoir.session.api.SessionRef;
import dev.memoir.tenant.TenantId;

/**
 * The chat pipeline for other features (the MCP server's chat tool): a message answered with memory exactly as
 * {@code POST /chat} answers it, in a session the caller names or in the user's open conversation session.
 */
@Service
public class MemoryChat {

    private final ChatResponder responder;
    private final SessionService sessions;

    MemoryChat(ChatResponder responder, SessionService sessions) {
        this.responder = responder;
        this.sessions = sessions;
    }

    /** The reply, the turns stored, and the memories the model was given. */
    public record Reply(
            String reply,
            UUID sessionId,
            UUID userTurnId,
            UUID turnId,
            List<Memory> memories,
            boolean remembered,
            UUID episodeId) {}

    /** A memory given to the model for a reply, and whether the reply cited it. */
    public record Memory(UUID id, MemoryKind kind, String topic, String text, double score, boolean cited) {}

    /**
     * Answers {@code message}. With a session id, in that open session of the tenant (404 unknown, 409 closed), whose
     * user must be {@code userId} when one is given; without one, in the user's open session, started on first use
     * like the OpenAI-compatible endpoint's.
     */
    public Reply reply(TenantId tenant, String userId, UUID sessionId, String message) {
        UUID session;
        if (sessionId != null) {
            SessionRef open = sessions.requireOpen(tenant, sessionId);
            if (userId != null && !userId.equals(open.userId())) {
                throw new InvalidRequestException("userId", "is not the user of session " + sessionId);
            }
            session = sessionId;
        } else if (userId != null) {
            session = sessions.conversationOf(tenant, userId).id();
        } else {
            throw new InvalidRequestException("userId", "is required without a sessionId");
        }
        // Relayed by a model through an MCP tool: trusted as an MCP write is, not as the user's own words
        // (docs/trust.md).
        ChatReply reply = responder.respond(tenant, session, message, null, TurnOrigin.MCP);
        List<Memory> memories = reply.memories().stream()
                .map(m -> new Memory(m.id(), m.kind(), m.topic(), m.text(), m.score(), m.cited()))
                .toList();
        return new Reply(
                reply.reply(),
                session,
                reply.userTurnId(),
                reply.turnId(),
                memories,
                reply.remembered(),
                reply.episodeId());
    }
}
