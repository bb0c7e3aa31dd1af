package dev.memoir.audit;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A page of the audit trail, in the order of the chain (seq)")
record AuditPage(
        List<AuditEntryView> entries,

        @Schema(description = "Pass as ?cursor= for the next page; null on the last")
        String nextCursor) {}
