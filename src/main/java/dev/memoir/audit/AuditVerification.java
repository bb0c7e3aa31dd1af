package dev.memoir.audit;

import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "Whether the tenant's audit trail is whole: every sealed entry as written and in its place")
record AuditVerification(
        @Schema(description = "True when every sealed entry's content matches its hash and the chain has no gap")
        boolean intact,

        @Schema(description = "How many sealed entries were checked")
        long checked,

        @Schema(description = "The first kept entry's seq (earlier ones were purged by retention), or null when none")
        Long firstSeq,

        @Schema(description = "The last sealed entry's seq, or null when none")
        Long lastSeq,

        @Schema(
                description = "The last sealed entry's hash (hex). Kept outside Memoir, it lets a later check show "
                        + "that the chain up to it was not rewritten as a whole")
        String headHash,

        @Schema(description = "The first fault found, or null when intact")
        Fault fault) {

    @Schema(description = "Where the chain broke and why")
    record Fault(
            @Schema(description = "The seq where the fault was found")
            Long seq,

            @Schema(description = "The entry there, when there is one")
            UUID entryId,

            @Schema(description = "content-changed, link-broken, seq-gap or head-mismatch", example = "content-changed")
            String reason) {}
}
