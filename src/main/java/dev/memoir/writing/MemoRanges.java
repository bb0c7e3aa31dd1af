package dev.memoir.writing;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Makes the model's memo ranges valid (MemoChat): inside the dialogue, start before end, in order, not
 * overlapping, and together covering every line. What can be repaired is (swapped, clamped, trimmed, merged,
 * stretched over gaps); what cannot, such as a range wholly outside the dialogue, is dropped.
 */
final class MemoRanges {

    private MemoRanges() {}

    /** A memo as the model wrote it: lines are numbered from 1 and either bound may be missing. */
    record Proposed(String topic, String summary, Integer start, Integer end) {}

    /** A valid memo over lines {@code start..end} (1-based, both included). */
    record Memo(String topic, String summary, int start, int end) {}

    static List<Memo> repair(List<Proposed> proposed, int lineCount) {
        List<Memo> candidates = new ArrayList<>();
        for (Proposed p : proposed) {
            String topic = p.topic() == null ? "" : p.topic().strip();
            String summary = p.summary() == null ? "" : p.summary().strip();
            if ((topic.isEmpty() && summary.isEmpty()) || (p.start() == null && p.end() == null)) {
                continue;
            }
            int start = p.start() != null ? p.start() : p.end();
            int end = p.end() != null ? p.end() : p.start();
            if (start > end) {
                int swap = start;
                start = end;
                end = swap;
            }
            if (end < 1 || start > lineCount) {
                continue;
            }
            candidates.add(new Memo(
                    topic.isEmpty() ? summary : topic,
                    summary.isEmpty() ? topic : summary,
                    Math.max(1, start),
                    Math.min(lineCount, end)));
        }
        candidates.sort(Comparator.comparingInt(Memo::start).thenComparingInt(Memo::end));

        List<Memo> result = new ArrayList<>();
        for (Memo next : candidates) {
            if (result.isEmpty()) {
                result.add(new Memo(next.topic(), next.summary(), 1, next.end()));
                continue;
            }
            Memo previous = result.getLast();
            if (next.end() <= previous.end()) {
                // Wholly inside the previous range: one topic of the dialogue, told twice.
                result.set(result.size() - 1, merge(previous, next, previous.end()));
            } else if (next.start() <= previous.end()) {
                result.add(new Memo(next.topic(), next.summary(), previous.end() + 1, next.end()));
            } else {
                // A gap: the previous topic is taken to run on until the next one starts.
                result.set(
                        result.size() - 1,
                        new Memo(previous.topic(), previous.summary(), previous.start(), next.start() - 1));
                result.add(next);
            }
        }
        if (!result.isEmpty() && result.getLast().end() < lineCount) {
            Memo last = result.getLast();
            result.set(result.size() - 1, new Memo(last.topic(), last.summary(), last.start(), lineCount));
        }
        return result;
    }

    private static Memo merge(Memo kept, Memo absorbed, int end) {
        String summary = kept.summary().contains(absorbed.summary())
                ? kept.summary()
                : kept.summary() + " " + absorbed.summary();
        return new Memo(kept.topic(), summary, kept.start(), end);
    }
}
