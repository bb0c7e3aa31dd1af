package dev.memoir.session.imports;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.stereotype.Component;

import dev.memoir.common.web.InvalidRequestException;
import dev.memoir.common.web.Observed;
import dev.memoir.common.wire.TextSafety;
import dev.memoir.memory.api.TurnOrigin;
import dev.memoir.session.api.NewTurn;
import dev.memoir.session.api.Role;
import dev.memoir.session.store.SessionRepository;
import dev.memoir.session.turns.TurnRecorder;
import dev.memoir.tenant.TenantId;

/**
 * Imports a chat log into an open session without calling the chat model: stores its user and assistant messages
 * as turns, and accounts for every other message by its position and why it was skipped.
 */
@Component
public class TurnImport {

    private static final Pattern TURN_POSITION = Pattern.compile("turns\\[(\\d+)]");

    private final SessionRepository sessions;
    private final TurnRecorder recorder;
    private final Observed observations;

    TurnImport(SessionRepository sessions, TurnRecorder recorder, Observed observations) {
        this.sessions = sessions;
        this.recorder = recorder;
        this.observations = observations;
    }

    /**
     * Stores the log's dialogue at the end of the session: 404 when the session is not the tenant's, 409 when it is
     * closed, 400 naming the message when a time is out of order or in the future.
     */
    public TurnsImported importTurns(TenantId tenant, UUID sessionId, TurnsImport request) {
        return observed(request, () -> store(tenant, sessionId, request));
    }

    private TurnsImported store(TenantId tenant, UUID sessionId, TurnsImport request) {
        List<NewTurn> dialogue = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        List<TurnsImported.Skipped> skipped = new ArrayList<>();
        for (int i = 0; i < request.turns().size(); i++) {
            TurnsImport.TurnCreate turn = request.turns().get(i);
            Optional<Role> role = turn.role().dialogue();
            if (role.isEmpty()) {
                skipped.add(new TurnsImported.Skipped(
                        i,
                        turn.role().wireName(),
                        "a " + turn.role().wireName() + " message is not a turn of the dialogue"));
            } else if (turn.content() == null || !TextSafety.hasVisibleCharacter(turn.content())) {
                skipped.add(new TurnsImported.Skipped(i, turn.role().wireName(), "it has no visible text"));
            } else {
                dialogue.add(new NewTurn(role.get(), turn.content(), turn.occurredAt(), turn.speakerName()));
                positions.add(i);
            }
        }
        if (dialogue.isEmpty()) {
            // Nothing to store: still 404 or 409 as a store would answer.
            sessions.require(tenant, sessionId).requireOpen();
            return new TurnsImported(List.of(), skipped);
        }
        // A client that calls its own model records the exchange here (POST /context's counterpart): live, as chat.
        try {
            return new TurnsImported(recorder.append(tenant, sessionId, dialogue, TurnOrigin.LIVE), skipped);
        } catch (InvalidRequestException e) {
            // The recorder names the stored turns by their place among themselves; the client sent them elsewhere.
            throw e.withFieldsRenamed(field -> renumbered(field, positions));
        }
    }

    private static String renumbered(String field, List<Integer> positions) {
        Matcher position = TURN_POSITION.matcher(field);
        return position.lookingAt()
                ? "turns[" + positions.get(Integer.parseInt(position.group(1))) + "]" + field.substring(position.end())
                : field;
    }

    /** The import as one memoir.import observation; the number of messages goes to the span, never their words. */
    private TurnsImported observed(TurnsImport request, Supplier<TurnsImported> work) {
        return observations.importing("turns", request.turns().size(), work);
    }
}
