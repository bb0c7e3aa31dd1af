package dev.memoir.mcp;

import java.time.Instant;

import jakarta.validation.constraints.Size;

import io.modelcontextprotocol.common.McpTransportContext;

import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.mcp.annotation.McpTool.McpAnnotations;
import org.springframework.ai.mcp.annotation.McpToolParam;
import org.springframework.stereotype.Component;

import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.usage.Usage;
import dev.memoir.usage.UsageGrouping;
import dev.memoir.usage.UsageInterval;
import dev.memoir.usage.UsageReport;

/** The tenant's model usage: what GET /usage answers. */
@Component
class UsageTools {

    private final Usage usage;

    UsageTools(Usage usage) {
        this.usage = usage;
    }

    @McpTool(
            name = "get_usage",
            title = "Get the model usage",
            description = """
            Answers the model tokens and requests the tenant used over a range, in total and per group (step, \
            user, model or kind), each group as a series of days or hours, with an estimated cost where the \
            operator set prices. The same as GET /usage.""",
            annotations =
                    @McpAnnotations(
                            title = "Get the model usage",
                            readOnlyHint = true,
                            destructiveHint = false,
                            idempotentHint = true,
                            openWorldHint = false))
    UsageReport getUsage(
            McpTransportContext context,
            @McpToolParam(
                            description =
                                    "Start of the range (ISO-8601); by default 30 days before to (a day for hours)",
                            required = false)
                    Instant from,
            @McpToolParam(description = "End of the range (ISO-8601, exclusive); by default now", required = false)
                    Instant to,
            @McpToolParam(
                            description = "day (the default, at most 400 days) or hour (at most 31 days)",
                            required = false)
                    UsageInterval interval,
            @McpToolParam(description = "step (the default), user, model or kind", required = false)
                    UsageGrouping groupBy,
            @McpToolParam(description = "Only this user's usage", required = false)
                    @Size(max = FieldConstraints.USER_ID)
                    String userId) {
        return usage.ofTenant(ToolContext.tenant(context), from, to, interval, groupBy, userId);
    }
}
