package dev.memoir.memory;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import dev.memoir.tenant.TenantId;

@RestController
@RequestMapping("/memory")
@Tag(name = "Memory", description = "Read, search, edit and delete what Memoir remembers about a user")
class MemoryController {

    private final MemoryStore store;

    MemoryController(MemoryStore store) {
        this.store = store;
    }

    @GetMapping
    @Operation(summary = "List or search a user's memories",
            description = "With `query`, memories are ranked by cosine similarity to it; without, newest first.",
            responses = {@ApiResponse(responseCode = "200"),
                    @ApiResponse(responseCode = "400", description = "Missing userId or invalid kind/limit")})
    MemoryList list(TenantId tenant,
            @Parameter(description = "The user whose memories to read", required = true)
            @RequestParam @NotBlank @Size(max = 200) String userId,
            @Parameter(description = "Text to rank memories by similarity") @RequestParam(required = false)
            String query,
            @Parameter(description = "Only these kinds (repeatable); all kinds when omitted")
            @RequestParam(required = false) Set<MemoryKind> kind,
            @Parameter(description = "Maximum number of memories, 1 to 100") @RequestParam(defaultValue = "20")
            @Min(1) @Max(100) int limit) {
        Set<MemoryKind> kinds = kind == null || kind.isEmpty() ? EnumSet.allOf(MemoryKind.class) : kind;
        List<MemoryView> items = query == null || query.isBlank()
                ? store.newest(tenant, userId, kinds, limit)
                : store.search(tenant, userId, kinds, query, limit);
        return new MemoryList(items);
    }

    @GetMapping("/{id}")
    @Operation(summary = "Get one memory", responses = {@ApiResponse(responseCode = "200"),
            @ApiResponse(responseCode = "404", description = "No such memory for this tenant")})
    MemoryView get(TenantId tenant, @PathVariable UUID id) {
        return store.get(tenant, id);
    }

    @GetMapping("/{id}/revisions")
    @Operation(summary = "List every version of a memory, newest first",
            description = "Edits, recursive-summary folds, topic merges and corrections learned from feedback "
                    + "(reflection) make new versions; each keeps its text, the session that caused it and why.",
            responses = {@ApiResponse(responseCode = "200"),
                    @ApiResponse(responseCode = "404", description = "No such memory for this tenant")})
    MemoryRevisionList revisions(TenantId tenant, @PathVariable UUID id) {
        return new MemoryRevisionList(store.revisions(tenant, id));
    }

    @PatchMapping("/{id}")
    @Operation(summary = "Edit a memory's text (it is re-embedded and the old text kept as a revision)", responses = {@ApiResponse(responseCode = "200"),
            @ApiResponse(responseCode = "400", description = "Blank or too long text"),
            @ApiResponse(responseCode = "404", description = "No such memory for this tenant")})
    MemoryView update(TenantId tenant, @PathVariable UUID id, @Valid @RequestBody MemoryUpdate update) {
        return store.updateText(tenant, id, update.text().strip());
    }

    @DeleteMapping("/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Operation(summary = "Delete a memory", responses = {@ApiResponse(responseCode = "204"),
            @ApiResponse(responseCode = "404", description = "No such memory for this tenant")})
    void delete(TenantId tenant, @PathVariable UUID id) {
        store.delete(tenant, id);
    }
}
