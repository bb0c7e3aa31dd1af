package dev.memoir.reranker;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.tenant.TenantId;

/** The tenant's learned reranker under {@code /reflection/reranker}, beside the feedback endpoints' URLs. */
@RestController
@RequestMapping("/reflection/reranker")
@Tag(name = "Reflection", description = "What Memoir learns from its own replies and from the user's feedback")
class RerankerController {

    private final RerankerInspector reranker;
    private final EmbeddingModel embeddingModel;

    RerankerController(RerankerInspector reranker, EmbeddingModel embeddingModel) {
        this.reranker = reranker;
        this.embeddingModel = embeddingModel;
    }

    @GetMapping("/history")
    @Operation(
            summary = "How the tenant's reranker did over time, version by version",
            description = "The most recent reranked replies, grouped by the reranker version that served them, "
                    + "oldest first: each version's average reward and the share of cited memories its own scores "
                    + "put in the top K, beside the share plain retrieval order would have.",
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(responseCode = "400", description = "Invalid replies")
            })
    RerankerHistory history(
            TenantId tenant,
            @Parameter(
                            description = "How many of the most recent reranked replies to cover, 1 to "
                                    + FieldConstraints.RERANKED_REPLIES)
                    @RequestParam(defaultValue = "" + FieldConstraints.RERANKED_REPLIES_DEFAULT)
                    @Min(1)
                    @Max(FieldConstraints.RERANKED_REPLIES)
                    int replies) {
        return reranker.history(tenant, replies);
    }

    @GetMapping
    @Operation(
            summary = "The tenant's learned reranker: version, updates, recent reward and recall",
            description = "Recall compares, over the recent replies, how many cited memories plain retrieval order "
                    + "would have put in the top K with how many the current reranker does.",
            responses = @ApiResponse(responseCode = "200"))
    RerankerStatus status(TenantId tenant) {
        return reranker.status(tenant);
    }

    @PostMapping("/reset")
    @Operation(
            summary = "Reset the tenant's reranker to the identity (ranks as retrieval does)",
            description = "Feedback gathered so far is kept but not learned from again.",
            responses = @ApiResponse(responseCode = "200"))
    RerankerStatus reset(TenantId tenant) {
        return reranker.reset(tenant, embeddingModel.dimensions());
    }
}
