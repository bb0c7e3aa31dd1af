package dev.memoir.llm;

import java.time.Duration;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Hands each request's {@link ModelUsage} to the {@link ModelUsageListener}s; never fails the request it tells of. */
final class UsageTeller {

    private static final Logger log = LoggerFactory.getLogger(UsageTeller.class);

    private final List<ModelUsageListener> listeners;
    private final TokenCounter counter;

    UsageTeller(List<ModelUsageListener> listeners, TokenCounter counter) {
        this.listeners = List.copyOf(listeners);
        this.counter = counter;
    }

    boolean listened() {
        return !listeners.isEmpty();
    }

    int count(String text) {
        return counter.count(text == null ? "" : text);
    }

    /** A batch of texts embedded, its tokens counted by Memoir (an embedding server reports none Memoir reads). */
    void embedded(String purpose, String model, List<String> texts, Duration took, boolean failed) {
        if (listened()) {
            long tokens = failed ? 0 : texts.stream().mapToLong(this::count).sum();
            tell(new ModelUsage(
                    ModelUsage.Kind.EMBEDDING, "embedding-" + purpose, model, tokens, 0, false, took, failed));
        }
    }

    void tell(ModelUsage usage) {
        for (ModelUsageListener listener : listeners) {
            try {
                listener.used(usage);
            } catch (RuntimeException e) {
                // Usage is bookkeeping: it never fails the call it records.
                log.warn("A usage listener failed on a {} call: {}", usage.step(), e.toString());
            }
        }
    }
}
