package dev.memoir.common.web;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class OpenApiConfig {

    @Bean
    OpenAPI memoirOpenApi() {
        return new OpenAPI()
                .info(new Info().title("Memoir").version("v1").description("""
                                Long-term memory for LLM assistants. Chat through `/chat` and Memoir retrieves what \
                                it remembers about the user, answers with the configured chat model and learns from \
                                the exchange; or manage memory directly under `/memory`.

                                Every request carries an API key (`Authorization: Bearer ...`). Errors are RFC 9457 \
                                problem details (`application/problem+json`, schema `Problem`) whose `code` is \
                                stable: `invalid-request` and `malformed-body` (400), `unauthorized` (401), \
                                `not-found` (404), `method-not-allowed` (405), `session-closed`, \
                                `conversation-of-another-user`, `memory-changed` \
                                and `key-revoked` (409), `payload-too-large` (413), `unsupported-media-type` (415), \
                                `too-many-requests` (429, with Retry-After), `internal-error` (500), `model-error` \
                                and `model-unusable-answer` (502), `model-unavailable` and `database-unavailable` \
                                (503), `model-timeout` (504). The OpenAI-compatible `/v1` paths answer errors in \
                                OpenAI's error body with the same status codes."""))
                .components(new Components()
                        .addSecuritySchemes(
                                "apiKey",
                                new SecurityScheme()
                                        .type(SecurityScheme.Type.HTTP)
                                        .scheme("bearer")
                                        .description("A tenant's API key, or the bootstrap key for /admin endpoints")))
                .addSecurityItem(new SecurityRequirement().addList("apiKey"));
    }
}
