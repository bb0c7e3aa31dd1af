package dev.memoir.erasure;

import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "What deleting a session removed")
record SessionErasure(
        UUID sessionId,
        int turns,

        @Schema(
                description = "Memories written from this session alone: history, conditional notes, its summary "
                        + "and memos")
        int memories,

        @Schema(description = "Reranker training examples taken from its replies")
        int rerankerFeedback,

        ErasureReceipt receipt) {}
