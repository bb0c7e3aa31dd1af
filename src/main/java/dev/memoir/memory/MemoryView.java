package dev.memoir.memory;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A stored memory")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MemoryView(
        UUID id,
        @Schema(description = "Memory form", example = "conditional") MemoryKind kind,
        @Schema(description = "Topic of a memo; absent for other kinds") String topic,
        @Schema(description = "Whose trait a topic memory describes: user or assistant; absent for other kinds")
        Speaker speaker,
        String text,
        @Schema(description = "Cosine similarity to the query (1 is identical); null when listing without a query")
        @JsonInclude(JsonInclude.Include.ALWAYS) Double score,
        Provenance provenance,
        @Schema(description = "Version of the text, from 1; earlier versions are listed under "
                + "/memory/{id}/revisions") int version,
        Instant createdAt,
        Instant updatedAt) {
}
