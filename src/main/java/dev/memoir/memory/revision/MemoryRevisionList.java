package dev.memoir.memory.revision;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

@Schema(description = "Versions of a memory, newest first, and where the next page starts")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MemoryRevisionList(
        List<MemoryRevisionView> items,

        @Schema(description = "Pass as cursor to get the next page; absent on the last page")
        String nextCursor) {}
