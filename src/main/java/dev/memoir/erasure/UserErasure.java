package dev.memoir.erasure;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "What was erased for the user")
record UserErasure(
        String userId,
        int sessions,
        int turns,
        int memories,

        @Schema(description = "Reranker feedback rows (the user's queries and citations)")
        int rerankerFeedback,

        ErasureReceipt receipt) {}
