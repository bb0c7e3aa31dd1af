package dev.memoir.common.wire;

import org.springframework.context.annotation.Configuration;
import org.springframework.core.convert.converter.Converter;
import org.springframework.core.convert.converter.ConverterFactory;
import org.springframework.format.FormatterRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Binds every enum-valued query parameter and path variable by its wire name ({@link WireNames}): one parser and one
 * message for a value it does not know, listing the accepted ones, whatever the enum.
 */
@Configuration(proxyBeanMethods = false)
class WireNameRequestConverters implements WebMvcConfigurer {

    @Override
    public void addFormatters(FormatterRegistry registry) {
        registry.addConverterFactory(new StringToEnum());
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static final class StringToEnum implements ConverterFactory<String, Enum> {

        @Override
        public <T extends Enum> Converter<String, T> getConverter(Class<T> type) {
            return value -> (T) WireNames.parse((Class) type, value, WireNameAttributeConverter.described(type));
        }
    }
}
