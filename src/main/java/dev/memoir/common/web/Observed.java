package dev.memoir.common.web;

import java.util.function.Supplier;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.stereotype.Component;

/**
 * The one way Memoir makes an observation of its own (a timer, and a span when tracing is on): by a name of
 * {@link Name}, so that each is made with one name and one set of keys wherever its work is, and docs/running.md's
 * span table can be checked against the list. {@code ArchitectureTest} refuses {@code Observation.createNotStarted}
 * anywhere else.
 */
@Component
public class Observed {

    /** Every observation Memoir makes, by its name. */
    public enum Name {
        MEMORY_SEARCH("memoir.memory.search"),
        EMBEDDING("memoir.embedding"),
        MODEL_STEP("memoir.model.step"),
        IMPORT("memoir.import"),
        EXPORT("memoir.export"),
        JOB("memoir.job");

        private final String value;

        Name(String value) {
            this.value = value;
        }

        public String value() {
            return value;
        }
    }

    private final ObservationRegistry registry;

    public Observed(ObservationRegistry registry) {
        this.registry = registry;
    }

    /** An observation not yet started, for the caller to tag and observe its work with. */
    public Observation observation(Name name) {
        return Observation.createNotStarted(name.value(), registry);
    }

    /**
     * An import's work as a {@code memoir.import} of {@code what} (turns, user-archive, chatgpt-export...), with the
     * number of messages on the span when the caller knows it up front (null otherwise): never whose they are or
     * what they say.
     */
    public <T> T importing(String what, Integer messages, Supplier<T> work) {
        Observation observation = observation(Name.IMPORT).lowCardinalityKeyValue("memoir.import.what", what);
        if (messages != null) {
            observation.highCardinalityKeyValue("memoir.import.messages", Integer.toString(messages));
        }
        return observation.observe(work);
    }

    /** An export's work as a {@code memoir.export} of {@code what}. */
    public void exporting(String what, Runnable work) {
        observation(Name.EXPORT)
                .lowCardinalityKeyValue("memoir.export.what", what)
                .observe(work);
    }
}
