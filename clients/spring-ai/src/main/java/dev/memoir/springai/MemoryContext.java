package dev.memoir.springai;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * What Memoir's {@code POST /context} answers: the memory block its own reply would carry, for a system message.
 *
 * @param id the context's trace, which citations name ({@link MemoirClient#cite})
 * @param text the memory block; empty when nothing is remembered
 * @param tokens the memory tokens the text holds, in Memoir's count
 * @param entries the numbered entries of the text
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record MemoryContext(String id, String text, int tokens, List<Entry> entries) {

    public MemoryContext {
        text = text == null ? "" : text;
        entries = entries == null ? List.of() : List.copyOf(entries);
    }

    /** One numbered entry: the memory's id and kind, and what the text shows of it. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Entry(int number, String id, String kind, String shown) {}
}
