package dev.memoir.memory.store;

import jakarta.persistence.Converter;

import dev.memoir.common.wire.WireNameAttributeConverter;
import dev.memoir.memory.api.MemorySource;

@Converter(autoApply = true)
class MemorySourceConverter extends WireNameAttributeConverter<MemorySource> {

    MemorySourceConverter() {
        super(MemorySource.class);
    }
}
