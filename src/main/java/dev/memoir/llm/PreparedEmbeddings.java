package dev.memoir.llm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Embeddings computed ahead of the write that stores them, so that the write's transaction (and any lock it
 * holds) does not wait for the model. Each is taken once; the oldest are forgotten beyond a bound, so a
 * preparation whose write never comes (a refused import) costs nothing lasting.
 */
final class PreparedEmbeddings {

    private final int capacity;
    private final Map<String, EmbeddedDocument> prepared;

    PreparedEmbeddings(int capacity) {
        this.capacity = capacity;
        this.prepared = new LinkedHashMap<>(64, 0.75f, false);
    }

    synchronized void put(String key, EmbeddedDocument embedding) {
        prepared.put(key, embedding);
        var oldest = prepared.keySet().iterator();
        while (prepared.size() > capacity && oldest.hasNext()) {
            oldest.next();
            oldest.remove();
        }
    }

    /** The prepared embeddings of these keys, null where there is none; those found are taken. */
    synchronized List<EmbeddedDocument> take(List<String> keys) {
        List<EmbeddedDocument> found = new ArrayList<>(keys.size());
        for (String key : keys) {
            found.add(prepared.remove(key));
        }
        return found;
    }

    synchronized boolean has(String key) {
        return prepared.containsKey(key);
    }
}
