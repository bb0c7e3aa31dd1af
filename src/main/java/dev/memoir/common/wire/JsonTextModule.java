package dev.memoir.common.wire;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.deser.jdk.StringDeserializer;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.module.SimpleModule;

/** Every string of a JSON request body must be text PostgreSQL can store (see {@link TextSafety}). */
@Configuration(proxyBeanMethods = false)
class JsonTextModule {

    @Bean
    JacksonModule safeTextModule() {
        return new SimpleModule("memoir-safe-text").addDeserializer(String.class, new SafeStringDeserializer());
    }

    static final class SafeStringDeserializer extends StringDeserializer {

        @Override
        public String deserialize(JsonParser parser, DeserializationContext context) {
            String value = super.deserialize(parser, context);
            String problem = TextSafety.problem(value);
            if (problem != null) {
                throw InvalidFormatException.from(parser, problem, value, String.class);
            }
            return value;
        }
    }
}
