package dev.memoir.memory.embedding;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.memoir.tenant.OperatorAccess;

@RestController
@Tag(name = "Admin")
class EmbeddingAdminController {

    private final MemoryReembedder reembedder;

    EmbeddingAdminController(MemoryReembedder reembedder) {
        this.reembedder = reembedder;
    }

    @GetMapping("/admin/embeddings")
    @Operation(
            summary = "Progress of re-embedding after a change of embedding model",
            description = "Memories embedded by another model than the configured one are re-embedded by a "
                    + "background job; until then search finds them by their words only. Also in the metrics "
                    + "memoir.embedding.stale and memoir.embedding.reembedded.",
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(responseCode = "401", description = "Missing or wrong bootstrap key")
            })
    MemoryReembedder.Progress progress(OperatorAccess operator) {
        return reembedder.progress();
    }
}
