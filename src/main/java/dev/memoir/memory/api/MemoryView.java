package dev.memoir.memory.api;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

@Schema(description = "A stored memory")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MemoryView(
        UUID id,

        @Schema(description = "Memory form", example = "conditional")
        MemoryKind kind,

        @Schema(description = "Topic of a memo; absent for other kinds")
        String topic,

        @Schema(description = "Whose trait a topic memory describes: user or assistant; absent for other kinds")
        Speaker speaker,

        String text,

        @Schema(
                description = "Cosine similarity of the embeddings to the query (1 is identical); null when listing "
                        + "without a query. Results are ordered by the fused ranking, not by this score alone.")
        @JsonInclude(JsonInclude.Include.ALWAYS)
        Double score,

        Provenance provenance,

        @Schema(
                description =
                        "Version of the text, from 1; earlier versions are listed under " + "/memory/{id}/revisions")
        int version,

        Instant createdAt,
        Instant updatedAt,

        @Schema(description = "Start of the dialogue time the memory records (when its first turn was said)")
        Instant occurredFrom,

        @Schema(description = "End of the dialogue time the memory records (when its last turn was said)")
        Instant occurredTo,

        @Schema(
                description = "When the memory stopped being true: when what superseded it was said. Absent while "
                        + "it is live.")
        Instant validTo,

        @Schema(description = "The newer memory that superseded this one; absent while it is live")
        UUID supersededBy,

        @Schema(description = "The memories this one superseded, oldest validity first; absent when none")
        List<UUID> supersedes,

        @Schema(
                description = "When the memory expires: from then on it is invisible, and the retention job "
                        + "deletes it. Absent when it does not expire.")
        Instant expiresAt,

        @Schema(
                description = "What the poisoning screen found in the text (docs/trust.md): absent when nothing, or "
                        + "when the tenant's policy allows such text")
        MemoryScreening screening,

        @Schema(description = "How a search ranked this memory; only with explain=true")
        SearchExplanation explanation) {

    public MemoryView {
        supersedes = supersedes == null || supersedes.isEmpty() ? null : List.copyOf(supersedes);
    }

    /** The memory without its text: what may be shown to a model of a memory held back from it. */
    public MemoryView withoutText() {
        return new MemoryView(
                id,
                kind,
                topic,
                speaker,
                null,
                score,
                provenance,
                version,
                createdAt,
                updatedAt,
                occurredFrom,
                occurredTo,
                validTo,
                supersededBy,
                supersedes,
                expiresAt,
                screening,
                explanation);
    }

    public MemoryView explained(SearchExplanation why) {
        return new MemoryView(
                id,
                kind,
                topic,
                speaker,
                text,
                score,
                provenance,
                version,
                createdAt,
                updatedAt,
                occurredFrom,
                occurredTo,
                validTo,
                supersededBy,
                supersedes,
                expiresAt,
                screening,
                why);
    }

    /** Whether the memory is live: not superseded (an expired memory is never shown at all). */
    public boolean live() {
        return supersededBy == null;
    }
}
