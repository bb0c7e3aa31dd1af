package dev.memoir.erasure;

import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(
        description =
                "Proof that the erasure happened: the audit entry that records it, with the counts, written in the "
                        + "erasure's own transaction. GET /audit/entries/{auditEntryId} shows it with its hashes once chained "
                        + "(within seconds); GET /audit/verify checks the chain it is part of.")
record ErasureReceipt(
        UUID auditEntryId,

        @Schema(example = "/audit/entries/5b0e1f4c-2a7d-4c3e-9f10-6d2b8a9e7c41")
        String entryPath) {

    static ErasureReceipt of(UUID auditEntryId) {
        return new ErasureReceipt(auditEntryId, "/audit/entries/" + auditEntryId);
    }
}
