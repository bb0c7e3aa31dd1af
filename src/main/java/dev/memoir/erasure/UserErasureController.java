package dev.memoir.erasure;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.memoir.common.wire.UserIdentifier;
import dev.memoir.tenant.TenantId;

@RestController
@Tag(name = "Memory")
class UserErasureController {

    private final UserDataEraser eraser;

    UserErasureController(UserDataEraser eraser) {
        this.eraser = eraser;
    }

    @DeleteMapping(path = "/memory", params = "userId")
    @Operation(
            summary = "Erase everything stored for a user",
            description = "Deletes the user's sessions, turns and memories, and reports how many of each.",
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(responseCode = "400", description = "Missing userId")
            })
    UserErasure erase(
            TenantId tenant,
            @Parameter(description = "The user to erase", required = true) @RequestParam @UserIdentifier
                    String userId) {
        return eraser.erase(tenant, userId);
    }
}
