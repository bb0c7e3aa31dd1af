package dev.memoir.chat.openai;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.stereotype.Component;

import dev.memoir.common.web.InvalidRequestException;
import dev.memoir.common.wire.TextSafety;
import dev.memoir.redaction.SecretRedactor;
import dev.memoir.session.SessionService;
import dev.memoir.session.TurnReader;
import dev.memoir.session.api.NewTurn;
import dev.memoir.session.api.Role;
import dev.memoir.session.api.SessionRef;
import dev.memoir.session.api.TurnView;
import dev.memoir.tenant.TenantId;

/**
 * For clients that resend the whole conversation (OpenAI's chat-completions format): finds the session it
 * belongs to and stores the earlier messages Memoir has not stored yet, never twice.
 */
@Component
class ConversationSync {

    private final SessionService sessions;
    private final TurnReader turnReader;
    private final SecretRedactor redactor;

    ConversationSync(SessionService sessions, TurnReader turnReader, SecretRedactor redactor) {
        this.sessions = sessions;
        this.turnReader = turnReader;
        this.redactor = redactor;
    }

    /** The conversation's session and the new user message to answer in it. */
    record Synced(SessionRef session, String message) {}

    Synced sync(TenantId tenant, String userId, UUID sessionId, List<OpenAiChatRequest.Message> messages) {
        // A message's content is read as a JSON tree, which the body's per-field text check does not reach.
        for (int i = 0; i < messages.size(); i++) {
            String problem = TextSafety.problem(messages.get(i).text());
            if (problem != null) {
                throw new InvalidRequestException("messages[" + i + "].content", problem);
            }
        }
        OpenAiChatRequest.Message last = messages.getLast();
        if (Role.ofMessageRole(last.role()).orElse(null) != Role.USER || !TextSafety.hasVisibleCharacter(last.text())) {
            throw new InvalidRequestException(
                    "messages[" + (messages.size() - 1) + "]",
                    "the last message must be the user's, with text to answer");
        }
        // A class the tenant refuses in the message to answer refuses the request before anything is stored.
        redactor.redact(tenant, last.text());
        SessionRef session = resolve(tenant, userId, sessionId);
        List<NewTurn> history = new ArrayList<>();
        for (OpenAiChatRequest.Message message : messages.subList(0, messages.size() - 1)) {
            // Masked as stored turns are, so that a message the client sends again is seen as stored: a reply of the
            // model's was stored with a refused class masked, not refused, and is compared so. What is new is
            // appended below, where a refused class refuses it.
            String text = redactor.redactModelText(tenant, message.text().strip());
            Optional<Role> role = Role.ofMessageRole(message.role());
            if (role.isPresent() && TextSafety.hasVisibleCharacter(text)) {
                history.add(new NewTurn(role.get(), text));
            }
        }
        List<TurnView> stored = turnReader.allTurns(session.tenant(), session.id());
        int common = 0;
        while (common < stored.size()
                && common < history.size()
                && stored.get(common).role() == history.get(common).role()
                && stored.get(common)
                        .content()
                        .strip()
                        .equals(history.get(common).content())) {
            common++;
        }
        // A conversation that continues what is stored adds its new earlier messages; one that departs from it (a
        // client that edited or rewound its history) adds none, rather than storing the same dialogue twice.
        if (common == stored.size() && common < history.size()) {
            sessions.append(tenant, session.id(), history.subList(common, history.size()));
        }
        return new Synced(session, last.text().strip());
    }

    private SessionRef resolve(TenantId tenant, String userId, UUID sessionId) {
        if (sessionId == null) {
            if (userId == null) {
                throw new InvalidRequestException(
                        "user", "name the end user: the request's user field or the X-Memoir-User header");
            }
            return sessions.conversationOf(tenant, userId);
        }
        SessionRef session = sessions.requireOpen(tenant, sessionId);
        if (userId != null && !userId.equals(session.userId())) {
            throw new InvalidRequestException("user", "session " + sessionId + " belongs to another user");
        }
        return session;
    }
}
