package dev.memoir.common.web;

import java.text.ParseException;
import java.time.Instant;
import java.util.Collection;
import java.util.Iterator;
import java.util.Locale;
import java.util.UUID;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.format.Formatter;
import org.springframework.format.FormatterRegistry;
import org.springframework.format.datetime.standard.InstantFormatter;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import tools.jackson.core.JsonParser;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.ValueDeserializerModifier;
import tools.jackson.databind.deser.std.DelegatingDeserializer;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.type.CollectionType;

/**
 * The one place where values a client sends are checked that the types alone let through: an instant PostgreSQL
 * cannot store ({@link StorableInstants}), in a JSON body (requests, user archives, MCP arguments: all read by the
 * application's JsonMapper) or a query parameter, and a null among ids. Each is a 400 naming the field, where it
 * used to fail later as a 500.
 */
@Configuration(proxyBeanMethods = false)
class ClientValueChecks implements WebMvcConfigurer {

    @Bean
    JacksonModule clientValueModule() {
        return new SimpleModule("memoir-client-values").setDeserializerModifier(new ValueDeserializerModifier() {

            @Override
            public ValueDeserializer<?> modifyDeserializer(
                    DeserializationConfig config,
                    BeanDescription.Supplier description,
                    ValueDeserializer<?> deserializer) {
                return description.getBeanClass() == Instant.class ? new StorableInstant(deserializer) : deserializer;
            }

            @Override
            public ValueDeserializer<?> modifyCollectionDeserializer(
                    DeserializationConfig config,
                    CollectionType type,
                    BeanDescription.Supplier description,
                    ValueDeserializer<?> deserializer) {
                return type.getContentType().hasRawClass(UUID.class)
                        ? new IdsWithoutNull(deserializer, type)
                        : deserializer;
            }
        });
    }

    /** Query parameters and path variables: parsed as Spring parses them by default, then checked. */
    @Override
    public void addFormatters(FormatterRegistry registry) {
        registry.addFormatterForFieldType(Instant.class, new Formatter<Instant>() {

            private final InstantFormatter parser = new InstantFormatter();

            @Override
            public Instant parse(String text, Locale locale) throws ParseException {
                Instant instant = parser.parse(text, locale);
                if (!StorableInstants.storable(instant)) {
                    throw new StorableInstants.UnstorableInstantException(instant);
                }
                return instant;
            }

            @Override
            public String print(Instant instant, Locale locale) {
                return parser.print(instant, locale);
            }
        });
    }

    private static final class StorableInstant extends DelegatingDeserializer {

        StorableInstant(ValueDeserializer<?> delegate) {
            super(delegate);
        }

        @Override
        protected ValueDeserializer<?> newDelegatingInstance(ValueDeserializer<?> delegate) {
            return new StorableInstant(delegate);
        }

        @Override
        public Object deserialize(JsonParser parser, DeserializationContext context) {
            Object value = super.deserialize(parser, context);
            if (value instanceof Instant instant && !StorableInstants.storable(instant)) {
                throw InvalidFormatException.from(parser, StorableInstants.problem(instant), instant, Instant.class);
            }
            return value;
        }
    }

    /** A null where an id belongs; its message is the one the client reads. */
    static final class NullIdException extends MismatchedInputException {

        NullIdException(JsonParser parser, JavaType type) {
            super(parser, "is null, not an id", type);
        }
    }

    /** A list of ids in which a null would name nothing, and fail as a 500 where it is used. */
    private static final class IdsWithoutNull extends DelegatingDeserializer {

        private final JavaType type;

        IdsWithoutNull(ValueDeserializer<?> delegate, JavaType type) {
            super(delegate);
            this.type = type;
        }

        @Override
        protected ValueDeserializer<?> newDelegatingInstance(ValueDeserializer<?> delegate) {
            return new IdsWithoutNull(delegate, type);
        }

        @Override
        public Object deserialize(JsonParser parser, DeserializationContext context) {
            Object value = super.deserialize(parser, context);
            if (value instanceof Collection<?> ids) {
                int index = 0;
                for (Iterator<?> it = ids.iterator(); it.hasNext(); index++) {
                    if (it.next() == null) {
                        NullIdException problem = new NullIdException(parser, type);
                        problem.prependPath(ids, index);
                        throw problem;
                    }
                }
            }
            return value;
        }
    }
}
