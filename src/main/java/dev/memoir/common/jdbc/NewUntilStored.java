package dev.memoir.common.jdbc;

import jakarta.persistence.MappedSuperclass;
import jakarta.persistence.PostLoad;
import jakarta.persistence.PostPersist;
import jakarta.persistence.Transient;

import org.springframework.data.domain.Persistable;

/**
 * An entity whose id is set before it is first saved (a random id, or the id of what it is about) and that Spring
 * Data's {@code save} must therefore insert, not merge: a merge reads the row by its id first, and on a database
 * distributed by tenant (Citus, docs/scaling.md) a read by id alone runs on every shard. New until it is persisted or
 * loaded.
 */
@MappedSuperclass
public abstract class NewUntilStored<ID> implements Persistable<ID> {

    @Transient
    private boolean stored;

    @Override
    public boolean isNew() {
        return !stored;
    }

    @PostPersist
    @PostLoad
    void stored() {
        stored = true;
    }
}
