/**
 * The MCP server: memory tools and chat for MCP clients, behind the same API keys.
 */
@ApplicationModule(allowedDependencies = {"archive", "chat", "common", "context", "memory", "tenant", "usage"})
package dev.memoir.mcp;

import org.springframework.modulith.ApplicationModule;
