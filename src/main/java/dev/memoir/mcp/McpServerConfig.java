package dev.memoir.mcp;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

import jakarta.validation.Validator;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncToolSpecification;

import org.springframework.ai.mcp.server.common.autoconfigure.properties.McpServerStreamableHttpProperties;
import org.springframework.ai.mcp.server.webmvc.transport.WebMvcStatelessServerTransport;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.memoir.tenant.TenantId;

import tools.jackson.databind.json.JsonMapper;

/**
 * The MCP server at {@code /mcp} (streamable HTTP, stateless; Spring AI's WebMVC starter). Requests reach it
 * through the same API-key filter as the REST API, which stores the key's tenant on the request; the transport
 * passes it to the tools in their transport context. Stateless, so any instance can serve any call.
 */
@Configuration(proxyBeanMethods = false)
class McpServerConfig {

    /** Replaces the starter's transport (it backs off when one exists) to add the tenant to each call's context. */
    @Bean
    WebMvcStatelessServerTransport webMvcStatelessServerTransport(
            @Qualifier("mcpServerJsonMapper") JsonMapper mcpJsonMapper, McpServerStreamableHttpProperties properties) {
        return WebMvcStatelessServerTransport.builder()
                .jsonMapper(new JacksonMcpJsonMapper(mcpJsonMapper))
                .messageEndpoint(properties.getMcpEndpoint())
                .contextExtractor(request -> TenantId.of(request.servletRequest())
                        .map(tenant -> McpTransportContext.create(Map.of(ToolContext.TENANT, tenant)))
                        .orElse(McpTransportContext.EMPTY))
                .build();
    }

    /**
     * The tools {@link MemoryTools}, {@link QuarantineTools}, {@link ArchiveTools}, {@link ChatTools},
     * {@link ContextTools} and {@link UsageTools} declare, listed in the order of their names whichever class declares them. Registered here rather than by the starter's annotation scanner
     * (switched off in application.yml), whose call handlers would neither validate the arguments nor answer errors
     * as the REST API does.
     */
    @Bean
    List<SyncToolSpecification> memoirTools(
            MemoryTools memory,
            QuarantineTools quarantine,
            ArchiveTools archive,
            ChatTools chat,
            ContextTools context,
            UsageTools usage,
            Validator validator,
            JsonMapper json) {
        return new ValidatingToolProvider(List.of(memory, quarantine, archive, chat, context, usage), validator, json)
                .getToolSpecifications().stream()
                        .sorted(Comparator.comparing(
                                specification -> specification.tool().name()))
                        .toList();
    }
}
