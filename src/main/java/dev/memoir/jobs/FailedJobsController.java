package dev.memoir.jobs;

import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import dev.memoir.tenant.OperatorAccess;
import dev.memoir.web.NotFoundException;

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

    record FailedJobList(List<FailedJob> items) {
    }

    @GetMapping
    @Operation(summary = "Background jobs that failed on every retry (the dead-letter list), newest first",
            responses = {@ApiResponse(responseCode = "200", description = "The failed jobs"),
                    @ApiResponse(responseCode = "401", description = "Missing or wrong bootstrap key")})
    FailedJobList list(OperatorAccess operator,
            @Parameter(description = "At most this many (1..500)") @RequestParam(defaultValue = "100")
            @Min(1) @Max(500) int limit) {
        return new FailedJobList(failed.list(limit));
    }

    @PostMapping("/{task}/{instance}/retry")
    @ResponseStatus(HttpStatus.ACCEPTED)
    @Operation(summary = "Run a failed job again: it leaves the list and is queued with a fresh retry budget",
            responses = {@ApiResponse(responseCode = "202", description = "Queued"),
                    @ApiResponse(responseCode = "401", description = "Missing or wrong bootstrap key"),
                    @ApiResponse(responseCode = "404", description = "No such failed job")})
    void retry(OperatorAccess operator, @PathVariable String task, @PathVariable String instance) {
        if (!jobs.retryFailed(task, instance)) {
            throw new NotFoundException("Failed job", task + "/" + instance);
        }
    }
}
