package dev.memoir.memory.store;

import jakarta.persistence.Embeddable;

import dev.memoir.memory.api.MemoryOrigin;
import dev.memoir.memory.api.MemorySource;
import dev.memoir.memory.api.Trust;

/** A memory's source and trust as its row keeps them (V59): trust as its rank, so that a minimum is a comparison. */
@Embeddable
class StoredOrigin {

    private MemorySource source;

    private String sourceDetail;

    private short trust;

    protected StoredOrigin() {}

    StoredOrigin(MemoryOrigin origin) {
        this.source = origin.source();
        this.sourceDetail = origin.sourceDetail();
        this.trust = (short) origin.trust().rank();
    }

    MemoryOrigin value() {
        return new MemoryOrigin(source, sourceDetail, Trust.ofRank(trust));
    }
}
