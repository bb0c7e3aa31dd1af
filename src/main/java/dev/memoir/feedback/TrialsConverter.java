package dev.memoir.feedback;

import java.util.List;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

@Converter
class TrialsConverter implements AttributeConverter<List<Trial>, String> {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    public String convertToDatabaseColumn(List<Trial> trials) {
        return JSON.writeValueAsString(trials);
    }

    @Override
    public List<Trial> convertToEntityAttribute(String json) {
        return JSON.readValue(json, new TypeReference<List<Trial>>() {});
    }
}
