package dev.memoir.memory.api;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "What the poisoning screen found in the memory's text, and what its tenant's policy did")
public record MemoryScreening(
        @Schema(
                description = "flagged (read as any memory, shown with the signs), quarantined (never read into a "
                        + "reply or a search until released) or released (quarantined once, then let in)",
                example = "quarantined")
        String state,

        @Schema(
                description = "override, role-tag, tool-call, hidden-characters or encoded-blob",
                example = "[\"override\"]")
        List<String> signs) {

    public static final String FLAGGED = "flagged";
    public static final String QUARANTINED = "quarantined";
    public static final String RELEASED = "released";

    public MemoryScreening {
        signs = List.copyOf(signs);
    }
}
