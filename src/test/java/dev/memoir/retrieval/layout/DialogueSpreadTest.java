package dev.memoir.retrieval.layout;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.MemoryOrigin;
import dev.memoir.memory.api.Provenance;
import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.memory.api.TurnOrigin;
import dev.memoir.session.api.Role;
import dev.memoir.session.api.TurnView;

/** A ranking reordered so that its front covers the arc of the dialogue. */
class DialogueSpreadTest {

    private static final MemoryOrigin LIVE = MemoryOrigin.ofTurn(true, TurnOrigin.LIVE);

    private static final UUID SESSION = UUID.randomUUID();
    private static final UUID OTHER = UUID.randomUUID();
    private final Map<UUID, TurnView> turns = new HashMap<>();

    private ScoredMemory at(UUID session, int seq) {
        return at(session, seq, Role.USER);
    }

    private ScoredMemory at(UUID session, int seq, Role role) {
        Instant when = Instant.parse("2024-03-01T10:00:00Z").plusSeconds(seq * 60L);
        TurnView turn = new TurnView(
                UUID.randomUUID(), session, seq, role, null, "turn " + seq, when, when, null, TurnOrigin.LIVE);
        ScoredMemory memory = new ScoredMemory(
                UUID.randomUUID(),
                MemoryKind.HISTORY,
                null,
                "User: turn " + seq,
                0.5,
                new Provenance(session, List.of(turn.id()), LIVE),
                when,
                null,
                null);
        turns.put(memory.id(), turn);
        return memory;
    }

    @Test
    void anUtteranceNearABetterRankedOneOfItsSessionMovesDownAsIfRankedTwiceAsFar() {
        ScoredMemory best = at(SESSION, 40);
        ScoredMemory beside = at(SESSION, 42);
        ScoredMemory farOff = at(SESSION, 10);
        ScoredMemory otherSession = at(OTHER, 41);
        ScoredMemory alsoBeside = at(SESSION, 11);

        List<ScoredMemory> spread =
                DialogueSpread.of(List.of(best, beside, farOff, otherSession, alsoBeside), turns, 4, false);

        // beside (2nd) counts as 4th, tying with otherSession, and keeps its better rank; alsoBeside (5th) as 10th.
        assertThat(spread).containsExactly(best, farOff, beside, otherSession, alsoBeside);
    }

    @Test
    void forWhatTheUserBroughtUpTheAssistantsUtterancesWaitForTheUsers() {
        ScoredMemory answer = at(SESSION, 41, Role.ASSISTANT);
        ScoredMemory question = at(SESSION, 40, Role.USER);
        ScoredMemory earlier = at(SESSION, 4, Role.USER);

        assertThat(DialogueSpread.of(List.of(answer, question, earlier), turns, 4, true))
                .containsExactly(question, earlier, answer);
        assertThat(DialogueSpread.of(List.of(answer, question, earlier), turns, 4, false))
                .containsExactly(answer, earlier, question);
    }

    @Test
    void memoriesOfNoSingleTurnKeepTheirPlaceAndAGapOfZeroKeepsTheRanking() {
        ScoredMemory best = at(SESSION, 40);
        ScoredMemory beside = at(SESSION, 41);
        ScoredMemory note = new ScoredMemory(
                UUID.randomUUID(),
                MemoryKind.CONDITIONAL,
                null,
                "Note: the user deploys on Render.",
                0.4,
                new Provenance(SESSION, List.of(), LIVE),
                null,
                null,
                null);

        assertThat(DialogueSpread.of(List.of(best, beside, note), turns, 4, false))
                .containsExactly(best, note, beside);
        assertThat(DialogueSpread.of(List.of(best, beside, note), turns, 0, false))
                .containsExactly(best, beside, note);
    }
}
