package dev.memoir.jobs;

import java.util.List;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Size;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.memoir.common.web.Cursor;
import dev.memoir.common.web.NotFoundException;
import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.tenant.OperatorAccess;

@RestController
@RequestMapping("/admin/jobs/failed")
@Tag(name = "Admin", description = "Tenants and their keys; needs the bootstrap key (memoir.security.bootstrap-key)")
class FailedJobsController {

    private final FailedJobs failed;
    private final Jobs jobs;

    FailedJobsController(FailedJobs failed, Jobs jobs) {
        this.failed = failed;
        this.jobs = jobs;
    }

    @Schema(description = "Failed jobs, newest failure first, and where the next page starts")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record FailedJobList(
            List<FailedJob> items,

            @Schema(description = "Pass as cursor to get the next page; absent on the last page")
            String nextCursor) {}

    @GetMapping
    @Operation(
            summary = "Background jobs that failed on every retry (the dead-letter list), newest first",
            description = "nextCursor is present when more failed jobs follow: pass it back as cursor for the next "
                    + "page. A job that fails again after being run again moves to the top.",
            responses = {
                @ApiResponse(responseCode = "200", description = "The failed jobs"),
                @ApiResponse(responseCode = "400", description = "Invalid limit or cursor"),
                @ApiResponse(responseCode = "401", description = "Missing or wrong bootstrap key")
            })
    FailedJobList list(
            OperatorAccess operator,
            @Parameter(description = "Jobs per page, 1 to " + FieldConstraints.FAILED_JOB_PAGE)
                    @RequestParam(defaultValue = "" + FieldConstraints.FAILED_JOB_PAGE_DEFAULT)
                    @Min(1)
                    @Max(FieldConstraints.FAILED_JOB_PAGE)
                    int limit,
            @Parameter(
                            description = "Where the page starts: the previous page's nextCursor; omit for the first "
                                    + "page")
                    @RequestParam(required = false)
                    @Size(max = FieldConstraints.FAILED_JOB_CURSOR)
                    String cursor) {
        Cursor position = Cursor.decode(cursor, "failed-jobs", 3);
        FailedJob after = position == null
                ? null
                : new FailedJob(position.text(1), position.text(2), 0, null, position.instant(0));
        Cursor.Page<FailedJob> page = Cursor.page(
                failed.list(after, limit + 1),
                limit,
                job -> Cursor.encode("failed-jobs", job.failedAt(), job.task(), job.instance()));
        return new FailedJobList(page.items(), page.nextCursor());
    }

    @PostMapping("/{task}/{instance}/retry")
    @ResponseStatus(HttpStatus.ACCEPTED)
    @Operation(
            summary = "Run a failed job again: it leaves the list and is queued with a fresh retry budget",
            responses = {
                @ApiResponse(responseCode = "202", description = "Queued"),
                @ApiResponse(responseCode = "401", description = "Missing or wrong bootstrap key"),
                @ApiResponse(responseCode = "404", description = "No such failed job")
            })
    void retry(OperatorAccess operator, @PathVariable String task, @PathVariable String instance) {
        if (!jobs.retryFailed(task, instance)) {
            throw new NotFoundException("Failed job", task + "/" + instance);
        }
    }
}
