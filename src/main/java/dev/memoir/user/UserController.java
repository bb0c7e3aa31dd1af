package dev.memoir.user;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Size;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.tenant.TenantId;

@RestController
@RequestMapping("/users")
@Tag(name = "Users", description = "The tenant's users: everyone with a session or a memory")
class UserController {

    private final UserDirectory directory;

    UserController(UserDirectory directory) {
        this.directory = directory;
    }

    @GetMapping
    @Operation(
            summary = "List the tenant's users with their counts of sessions and memories",
            description = "Users are listed by user id, a page at a time: nextCursor is present when more follow; "
                    + "pass it back as cursor for the next page. A user exists through their sessions and memories: "
                    + "erasing a user removes them from the list.",
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(responseCode = "400", description = "Invalid query, limit or cursor")
            })
    UserList list(
            TenantId tenant,
            @Parameter(description = "Only users whose id contains this text, ignoring case", example = "ali")
                    @RequestParam(required = false)
                    @Size(max = FieldConstraints.USER_ID)
                    String query,
            @Parameter(description = "Users per page, 1 to " + FieldConstraints.PAGE)
                    @RequestParam(defaultValue = "" + FieldConstraints.PAGE_DEFAULT)
                    @Min(1)
                    @Max(FieldConstraints.PAGE)
                    int limit,
            @Parameter(
                            description = "Where the page starts: the previous page's nextCursor; omit for the first "
                                    + "page")
                    @RequestParam(required = false)
                    @Size(max = FieldConstraints.CURSOR)
                    String cursor) {
        String contains = query == null || query.isBlank() ? null : query.strip();
        return directory.list(tenant, contains, cursor, limit);
    }
}
