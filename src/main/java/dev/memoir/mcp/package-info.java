/**
 * The MCP server: memory tools and chat for MCP clients, behind the same API keys.
 */
@ApplicationModule(
        allowedDependencies = {
            "archive",
            "archive::api",
            "chat",
            "common",
            "context",
            "memory",
            "memory::api",
            "tenant",
            "usage"
        })
package dev.memoir.mcp;

import org.springframework.modulith.ApplicationModule;
