package dev.memoir.memory;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.memoir.common.web.Cursor;
import dev.memoir.memory.api.MemoryView;

@Schema(description = "Memories, and where the next page starts")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MemoryList(
        List<MemoryView> items,

        @Schema(
                description = "Pass as cursor to get the next page; absent on the last page, and for searches "
                        + "(a ranked search is not paged: raise limit instead)")
        String nextCursor) {

    static MemoryList of(Cursor.Page<MemoryView> page) {
        return new MemoryList(page.items(), page.nextCursor());
    }

    public static MemoryList ranked(List<MemoryView> results) {
        return new MemoryList(results, null);
    }
}
