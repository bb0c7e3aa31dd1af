package dev.memoir.archive.user;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

import dev.memoir.archive.api.ImportedUser;
import dev.memoir.common.audit.AuditActor;
import dev.memoir.common.wire.UserIdentifier;
import dev.memoir.tenant.TenantId;

@RestController
@RequestMapping("/users/{userId}")
@Tag(name = "Users", description = "The tenant's users: everyone with a session or a memory")
class UserArchiveController {

    static final String NDJSON = "application/x-ndjson";

    private final UserExporter exporter;
    private final UserImporter importer;

    UserArchiveController(UserExporter exporter, UserImporter importer) {
        this.exporter = exporter;
        this.importer = importer;
    }

    @GetMapping(value = "/export", produces = NDJSON)
    @Operation(
            summary = "Export everything Memoir holds for a user, as a versioned NDJSON archive",
            description = """
                    Streams the user's sessions, turns, memories of every kind (superseded and expiring ones \\
                    included, with their validity, provenance and vectors), revisions, passages, learning \\
                    episodes and feedback, one JSON object per line, from one consistent snapshot. \\
                    `POST /users/{userId}/import` of any Memoir deployment restores it. The format is in \\
                    docs/api.md#user-export-and-import.""",
            responses = {
                @ApiResponse(responseCode = "200", content = @Content(mediaType = NDJSON)),
                @ApiResponse(responseCode = "404", description = "The user has no session and no memory")
            })
    ResponseEntity<StreamingResponseBody> export(
            TenantId tenant,
            @Parameter(description = "The user to export") @PathVariable @UserIdentifier String userId) {
        exporter.requireUser(tenant, userId);
        // Written on another thread: the audit trail still names this request's key.
        String actor = AuditActor.current();
        return ResponseEntity.ok()
                .contentType(MediaType.parseMediaType(NDJSON))
                .header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"memoir-user.ndjson\"")
                .body(out -> {
                    try (AuditActor caller = AuditActor.open(actor)) {
                        exporter.export(tenant, userId, out);
                    }
                });
    }

    @PostMapping(
            value = "/import",
            consumes = {NDJSON, MediaType.APPLICATION_OCTET_STREAM_VALUE})
    @Operation(
            summary = "Import a user archive as this user",
            description = """
                    Restores an archive made by `GET /users/{userId}/export` (of this or any Memoir deployment) \\
                    as this user of this tenant, in one transaction: every id is new, references follow, vectors \\
                    of this deployment's embedding model are reused and the others recomputed. The user must \\
                    have no sessions or memories yet. An archive that is malformed, cut short or inconsistent is \\
                    refused whole (400 `invalid-archive`, naming the line): nothing of it is stored. The body may \\
                    be up to memoir.api.max-archive-size.""",
            requestBody =
                    @RequestBody(
                            content =
                                    @Content(mediaType = NDJSON, schema = @Schema(type = "string", format = "binary"))),
            responses = {
                @ApiResponse(
                        responseCode = "201",
                        description = "Imported; Location is the user's " + "memory listing"),
                @ApiResponse(
                        responseCode = "400",
                        description = "Not an archive, another version, a line "
                                + "that cannot be read or stored, or an archive cut short"),
                @ApiResponse(responseCode = "409", description = "The user already has sessions or memories"),
                @ApiResponse(responseCode = "413", description = "Larger than memoir.api.max-archive-size")
            })
    ResponseEntity<ImportedUser> importArchive(
            TenantId tenant,
            @Parameter(description = "The user to import as") @PathVariable @UserIdentifier String userId,
            InputStream body)
            throws IOException {
        UserImporter.Imported imported = importer.restore(tenant, userId, body);
        return ResponseEntity.created(URI.create("/memory?userId=" + URLEncoder.encode(userId, StandardCharsets.UTF_8)))
                .body(new ImportedUser(imported.userId(), imported.counts(), imported.reembedded()));
    }
}
