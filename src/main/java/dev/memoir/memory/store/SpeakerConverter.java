package dev.memoir.memory.store;

import jakarta.persistence.Converter;

import dev.memoir.common.wire.WireNameAttributeConverter;
import dev.memoir.memory.api.Speaker;

@Converter(autoApply = true)
class SpeakerConverter extends WireNameAttributeConverter<Speaker> {

    SpeakerConverter() {
        super(Speaker.class);
    }
}
