package dev.memoir.session.store;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

import dev.memoir.memory.MemoryDefaults;
import dev.memoir.memory.MemorySettings;

import tools.jackson.databind.json.JsonMapper;

/**
 * A session's memory settings as stored, in JSON. Read back completed with the configured top-K of any kind they
 * do not name ({@link MemoryDefaults#completed}). Hibernate builds it through Spring, which injects the defaults.
 */
@Converter
public class MemorySettingsConverter implements AttributeConverter<MemorySettings, String> {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final MemoryDefaults defaults;

    MemorySettingsConverter(MemoryDefaults defaults) {
        this.defaults = defaults;
    }

    /** The settings as they were stored, not completed: for checking that an archive's settings can be read. */
    public static MemorySettings read(String json) {
        return JSON.readValue(json, MemorySettings.class);
    }

    @Override
    public String convertToDatabaseColumn(MemorySettings settings) {
        return JSON.writeValueAsString(settings);
    }

    @Override
    public MemorySettings convertToEntityAttribute(String json) {
        return defaults.completed(read(json));
    }
}
