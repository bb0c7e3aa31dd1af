package dev.memoir.memory;

import java.util.UUID;

import dev.memoir.common.web.ConflictException;

/** A memory changed between reading it for the model and writing what the model made of it. */
public class MemoryChangedException extends ConflictException {

    MemoryChangedException(UUID id) {
        super("memory-changed", "Memory " + id + " changed while it was being merged; the merge is made again");
    }
}
