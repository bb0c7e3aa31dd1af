package dev.memoir.chat.turn;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.memoir.memory.api.TurnOrigin;
import dev.memoir.session.api.Role;
import dev.memoir.session.api.TurnView;

class RecentDialogueTest {

    private static TurnView turn(int seq, int length) {
        return new TurnView(
                UUID.randomUUID(),
                null,
                seq,
                seq % 2 == 0 ? Role.USER : Role.ASSISTANT,
                null,
                "x".repeat(length),
                Instant.EPOCH,
                Instant.EPOCH,
                null,
                TurnOrigin.LIVE);
    }

    @Test
    void keepsTheNewestTurnsThatFitOldestFirst() {
        List<TurnView> turns = List.of(turn(0, 50), turn(1, 30), turn(2, 40), turn(3, 20));

        assertThat(RecentDialogue.within(turns, 100, String::length))
                .extracting(TurnView::seq)
                .containsExactly(1, 2, 3);
    }

    @Test
    void theMessageBeingAnsweredIsKeptEvenWhenItAloneExceedsTheBudget() {
        List<TurnView> turns = List.of(turn(0, 10), turn(1, 10), turn(2, 500));

        assertThat(RecentDialogue.within(turns, 100, String::length))
                .extracting(TurnView::seq)
                .containsExactly(2);
    }

    @Test
    void leavesNoHoleWhenASmallOlderTurnWouldStillFit() {
        List<TurnView> turns = List.of(turn(0, 5), turn(1, 90), turn(2, 20));

        assertThat(RecentDialogue.within(turns, 100, String::length))
                .extracting(TurnView::seq)
                .containsExactly(2);
    }
}
