package dev.memoir.archive.dataexport;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * One conversation of an export read as it streams, so that the heap never holds its JSON as a tree: its fields
 * but one are read whole (they are small), and the one that holds its messages (ChatGPT's {@code mapping}, Claude's
 * {@code chat_messages}) element by element, each made compact as soon as it is read. Each field and element is
 * bounded by the reader's limit of one element ({@link CountingReader#elementFromHere}).
 *
 * @param names    the names of all the conversation's fields
 * @param fields   the conversation's fields that its reader asked for (the others are skipped unread)
 * @param messages what the messages' field holds: an object, an array, something else, or nothing
 * @param elements the compact elements of that field, in order (none unless it is an object or an array)
 */
record ConversationStream<T>(Set<String> names, ObjectNode fields, Shape messages, List<T> elements) {

    /** What the field of the messages holds. */
    enum Shape {
        OBJECT,
        ARRAY,
        OTHER,
        ABSENT
    }

    /**
     * Reads the conversation whose {@code START_OBJECT} is the parser's current token, up to its {@code END_OBJECT};
     * each element of {@code messagesField} is handed to {@code compact} with its property name (an object's) or
     * null (an array's).
     */
    static <T> ConversationStream<T> read(
            JsonParser parser,
            ObjectReader values,
            CountingReader text,
            String messagesField,
            Set<String> wanted,
            BiFunction<String, JsonNode, T> compact) {
        Set<String> names = new HashSet<>();
        ObjectNode fields = JsonNodeFactory.instance.objectNode();
        Shape shape = Shape.ABSENT;
        List<T> elements = new ArrayList<>();
        for (JsonToken token = parser.nextToken(); token == JsonToken.PROPERTY_NAME; token = parser.nextToken()) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            names.add(name);
            if (!name.equals(messagesField)) {
                if (wanted.contains(name)) {
                    text.elementFromHere();
                    fields.set(name, values.readValue(parser));
                } else {
                    parser.skipChildren();
                }
                continue;
            }
            if (value == JsonToken.START_OBJECT) {
                shape = Shape.OBJECT;
                for (JsonToken key = parser.nextToken(); key == JsonToken.PROPERTY_NAME; key = parser.nextToken()) {
                    String elementName = parser.currentName();
                    parser.nextToken();
                    text.elementFromHere();
                    elements.add(compact.apply(elementName, values.readValue(parser)));
                }
            } else if (value == JsonToken.START_ARRAY) {
                shape = Shape.ARRAY;
                for (JsonToken element = parser.nextToken();
                        element != null && element != JsonToken.END_ARRAY;
                        element = parser.nextToken()) {
                    text.elementFromHere();
                    elements.add(compact.apply(null, values.readValue(parser)));
                }
            } else {
                shape = Shape.OTHER;
                parser.skipChildren();
            }
        }
        text.elementDone();
        return new ConversationStream<>(names, fields, shape, elements);
    }
}
