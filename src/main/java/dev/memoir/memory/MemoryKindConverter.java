package dev.memoir.memory;

import jakarta.persistence.Converter;

import dev.memoir.web.WireNameAttributeConverter;

@Converter(autoApply = true)
class MemoryKindConverter extends WireNameAttributeConverter<MemoryKind> {

    MemoryKindConverter() {
        super(MemoryKind.class);
    }
}
