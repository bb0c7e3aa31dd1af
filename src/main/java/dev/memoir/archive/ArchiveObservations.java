package dev.memoir.archive;

import java.util.function.Supplier;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.stereotype.Component;

/**
 * The one observation around each import ({@code memoir.import}) and export ({@code memoir.export}) of the module,
 * so that the importers and the exporter call their work as a plain method: its one key value says what moved, never
 * whose it is or what it says.
 */
@Component
class ArchiveObservations {

    private final ObservationRegistry observations;

    ArchiveObservations(ObservationRegistry observations) {
        this.observations = observations;
    }

    /** The import's result, observed as a {@code memoir.import} of {@code what} (user-archive, chatgpt-export...). */
    <T> T importing(String what, Supplier<T> work) {
        return Observation.createNotStarted("memoir.import", observations)
                .lowCardinalityKeyValue("memoir.import.what", what)
                .observe(work);
    }

    /** Runs the export, observed as a {@code memoir.export} of {@code what}. */
    void exporting(String what, Runnable work) {
        Observation.createNotStarted("memoir.export", observations)
                .lowCardinalityKeyValue("memoir.export.what", what)
                .observe(work);
    }
}
