package dev.memoir.memory.store;

import jakarta.persistence.Converter;

import dev.memoir.common.wire.WireNameAttributeConverter;
import dev.memoir.memory.api.MemoryKind;

@Converter(autoApply = true)
class MemoryKindConverter extends WireNameAttributeConverter<MemoryKind> {

    MemoryKindConverter() {
        super(MemoryKind.class);
    }
}
