package dev.memoir.writing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.memoir.writing.MemoRanges.Memo;
import dev.memoir.writing.MemoRanges.Proposed;

class MemoRangesTest {

    @Test
    void validRangesAreKeptAsTheyAre() {
        assertThat(MemoRanges.repair(List.of(new Proposed("worry", "s1", 1, 8), new Proposed("taxi", "s2", 9, 20)), 20))
                .containsExactly(new Memo("worry", "s1", 1, 8), new Memo("taxi", "s2", 9, 20));
    }

    @Test
    void overlappingRangesAreTrimmedToFollowOneAnother() {
        assertThat(MemoRanges.repair(List.of(new Proposed("a", "s1", 1, 10), new Proposed("b", "s2", 8, 20)), 20))
                .containsExactly(new Memo("a", "s1", 1, 10), new Memo("b", "s2", 11, 20));
    }

    @Test
    void aRangeInsideAnotherIsMergedIntoIt() {
        assertThat(MemoRanges.repair(
                        List.of(
                                new Proposed("a", "s1", 1, 12),
                                new Proposed("b", "s2", 3, 5),
                                new Proposed("c", "s3", 13, 20)),
                        20))
                .containsExactly(new Memo("a", "s1 s2", 1, 12), new Memo("c", "s3", 13, 20));
    }

    @Test
    void outOfRangeBoundsAreClampedAndRangesWhollyOutsideAreDropped() {
        assertThat(MemoRanges.repair(
                        List.of(
                                new Proposed("a", "s1", 0, 6),
                                new Proposed("b", "s2", 7, 35),
                                new Proposed("ghost", "s3", 40, 50),
                                new Proposed("before", "s4", -5, 0)),
                        20))
                .containsExactly(new Memo("a", "s1", 1, 6), new Memo("b", "s2", 7, 20));
    }

    @Test
    void reversedBoundsAreSwappedAndUnorderedRangesSorted() {
        assertThat(MemoRanges.repair(
                        List.of(new Proposed("late", "s2", 20, 11), new Proposed("early", "s1", 1, 10)), 20))
                .containsExactly(new Memo("early", "s1", 1, 10), new Memo("late", "s2", 11, 20));
    }

    @Test
    void gapsAreCoveredSoThatEveryLineBelongsToATopic() {
        assertThat(MemoRanges.repair(List.of(new Proposed("a", "s1", 3, 5), new Proposed("b", "s2", 9, 12)), 20))
                .containsExactly(new Memo("a", "s1", 1, 8), new Memo("b", "s2", 9, 20));
    }

    @Test
    void entriesWithoutTextOrBoundsAreDroppedAndAMissingBoundIsTheOther() {
        assertThat(MemoRanges.repair(
                        List.of(
                                new Proposed(" ", null, 1, 4),
                                new Proposed("a", "s", null, null),
                                new Proposed("b", "s2", 5, null)),
                        5))
                .containsExactly(new Memo("b", "s2", 1, 5));
        assertThat(MemoRanges.repair(List.of(), 5)).isEmpty();
    }
}
