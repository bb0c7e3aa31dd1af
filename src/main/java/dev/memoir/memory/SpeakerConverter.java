package dev.memoir.memory;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

@Converter(autoApply = true)
class SpeakerConverter implements AttributeConverter<Speaker, String> {

    @Override
    public String convertToDatabaseColumn(Speaker speaker) {
        return speaker == null ? null : speaker.wireName();
    }

    @Override
    public Speaker convertToEntityAttribute(String value) {
        return value == null ? null : Speaker.fromWireName(value);
    }
}
