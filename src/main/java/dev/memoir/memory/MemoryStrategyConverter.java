package dev.memoir.memory;

import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.core.convert.converter.Converter;
import org.springframework.stereotype.Component;

/** Binds {@code memoir.memory.strategy} by wire name, "conditional+summary" included. */
@Component
@ConfigurationPropertiesBinding
class MemoryStrategyConverter implements Converter<String, MemoryStrategy> {

    @Override
    public MemoryStrategy convert(String source) {
        return MemoryStrategy.fromWireName(source);
    }
}
