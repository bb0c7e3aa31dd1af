package dev.memoir.session;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

import dev.memoir.memory.MemorySettings;

import tools.jackson.databind.json.JsonMapper;

@Converter
class MemorySettingsConverter implements AttributeConverter<MemorySettings, String> {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    public String convertToDatabaseColumn(MemorySettings settings) {
        return JSON.writeValueAsString(settings);
    }

    @Override
    public MemorySettings convertToEntityAttribute(String json) {
        return JSON.readValue(json, MemorySettings.class);
    }
}
