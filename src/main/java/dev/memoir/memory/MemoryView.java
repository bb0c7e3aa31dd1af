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
        @Schema(description = "Cosine similarity of the embeddings to the query (1 is identical); null when listing "
                + "without a query. Results are ordered by the fused ranking, not by this score alone.")
        @JsonInclude(JsonInclude.Include.ALWAYS) Double score,
        Provenance provenance,
        @Schema(description = "Version of the text, from 1; earlier versions are listed under "
                + "/memory/{id}/revisions") int version,
        Instant createdAt,
        Instant updatedAt,
        @Schema(description = "Start of the dialogue time the memory records (when its first turn was said)")
        Instant occurredFrom,
        @Schema(description = "End of the dialogue time the memory records (when its last turn was said)")
        Instant occurredTo,
        @Schema(description = "How a search ranked this memory; only with explain=true")
        SearchExplanation explanation) {

    MemoryView explained(SearchExplanation why) {
        return new MemoryView(id, kind, topic, speaker, text, score, provenance, version, createdAt, updatedAt,
                occurredFrom, occurredTo, why);
    }
}
