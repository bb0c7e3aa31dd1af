package dev.memoir.erasure;

import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import dev.memoir.tenant.TenantId;

@RestController
@Tag(name = "Sessions")
class SessionErasureController {

    private final SessionEraser eraser;

    SessionErasureController(SessionEraser eraser) {
        this.eraser = eraser;
    }

    @DeleteMapping("/sessions/{id}")
    @Operation(
            summary = "Delete a session with everything derived from it alone",
            description = "Deletes the session, its turns, the memories written from it alone (history, conditional "
                    + "notes, its summary and memos, with their revisions), the feedback, episodes and reply traces "
                    + "of its turns and its queued memory jobs, and reports the counts. Topic memories and the "
                    + "recursive summary, which combine several sessions, and corrections learned from feedback "
                    + "stay; erase the user (DELETE /memory?userId=) to remove everything.",
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(responseCode = "404", description = "No such session for this tenant")
            })
    SessionErasure delete(TenantId tenant, @PathVariable UUID id) {
        return eraser.erase(tenant, id);
    }
}
