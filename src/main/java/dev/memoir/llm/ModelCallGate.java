package dev.memoir.llm;

import java.time.Duration;

/**
 * Asked before every request to the chat model, on the thread that makes it, whether the request may be sent now
 * (a tenant's budget, say). It reads whom the request is for from the thread ({@code UsageScope}) and answers an
 * {@link Admission} held until the request and its usage are told ({@link ModelUsageListener}), or throws the
 * {@code ApiException} the caller should get. Embeddings are never asked about: search must always work.
 */
public interface ModelCallGate {

    /**
     * A request about to be sent.
     *
     * @param step        the step's label
     * @param optional    whether the pipeline can go on without the answer (self-reflection, a memo's selection):
     *                    such a request may be {@linkplain Admission#skipped() skipped} instead of refused
     * @param model       the model it names
     * @param mostPrompt  the most prompt tokens it can take, in the model's count
     * @param mostAnswer  the most answer tokens it can take (its max_tokens)
     * @param mostTime    how long it may take, its retries included
     */
    record Call(String step, boolean optional, String model, long mostPrompt, long mostAnswer, Duration mostTime) {}

    /** Admits the request, or throws. */
    Admission admit(Call call);

    /** A request let through, or skipped; closed when the request is done and its usage told. */
    interface Admission extends AutoCloseable {

        Admission SENT = () -> {};

        Admission SKIPPED = new Admission() {
            @Override
            public boolean skipped() {
                return true;
            }

            @Override
            public void close() {}
        };

        /** The request is not to be sent: the step goes on as if the model's answer were unusable. */
        default boolean skipped() {
            return false;
        }

        @Override
        void close();
    }

    /** Lets every request through: a service with nothing that limits requests. */
    ModelCallGate OPEN = call -> Admission.SENT;
}
