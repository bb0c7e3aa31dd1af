package dev.memoir.llm;

/**
 * Told of every request to the chat model and every batch sent to the embedding model, on the thread that made it,
 * right after it: so an implementation can read whom the work was for from the thread ({@code UsageScope}). It must
 * return quickly and never throw: it runs on the reply's path.
 */
public interface ModelUsageListener {

    void used(ModelUsage usage);
}
