package dev.memoir.memory;

import org.springframework.core.convert.converter.Converter;
import org.springframework.stereotype.Component;

/** Binds {@code ?kind=history} query parameters by wire name. */
@Component
class MemoryKindParameterConverter implements Converter<String, MemoryKind> {

    @Override
    public MemoryKind convert(String source) {
        return MemoryKind.fromWireName(source);
    }
}
