package dev.memoir.memory;

import org.springframework.core.convert.converter.Converter;
import org.springframework.stereotype.Component;

/** Binds {@code ?mode=lexical} query parameters by wire name. */
@Component
class SearchModeParameterConverter implements Converter<String, SearchMode> {

    @Override
    public SearchMode convert(String source) {
        return SearchMode.fromWireName(source);
    }
}
