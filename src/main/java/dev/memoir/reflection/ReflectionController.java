package dev.memoir.reflection;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.memoir.tenant.TenantId;

@RestController
@RequestMapping("/reflection")
@Tag(name = "Reflection", description = "What Memoir learns from its own replies and from the user's feedback")
class ReflectionController {

    private final RerankerReflection reranker;
    private final EmbeddingModel embeddingModel;

    ReflectionController(RerankerReflection reranker, EmbeddingModel embeddingModel) {
        this.reranker = reranker;
        this.embeddingModel = embeddingModel;
    }

    @GetMapping("/reranker")
    @Operation(summary = "The tenant's learned reranker: version, updates, recent reward and recall",
            description = "Recall compares, over the recent replies, how many cited memories plain retrieval order "
                    + "would have put in the top K with how many the current reranker does.",
            responses = @ApiResponse(responseCode = "200"))
    RerankerStatus status(TenantId tenant) {
        return reranker.status(tenant);
    }

    @PostMapping("/reranker/reset")
    @Operation(summary = "Reset the tenant's reranker to the identity (ranks as retrieval does)",
            description = "Feedback gathered so far is kept but not learned from again.",
            responses = @ApiResponse(responseCode = "200"))
    RerankerStatus reset(TenantId tenant) {
        return reranker.reset(tenant, embeddingModel.dimensions());
    }
}
