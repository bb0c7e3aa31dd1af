package dev.memoir.memory;

import jakarta.persistence.Converter;

import dev.memoir.web.WireNameAttributeConverter;

@Converter(autoApply = true)
class SpeakerConverter extends WireNameAttributeConverter<Speaker> {

    SpeakerConverter() {
        super(Speaker.class);
    }
}
