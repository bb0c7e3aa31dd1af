package dev.memoir.web;

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
                .info(new Info()
                        .title("Memoir")
                        .version("v1")
                        .description("""
                                Long-term memory for LLM assistants. Chat through `/chat` and Memoir retrieves what \
                                it remembers about the user, answers with the configured chat model and learns from \
                                the exchange; or manage memory directly under `/memory`.

                                Every request carries an API key (`Authorization: Bearer ...`). Errors are RFC 9457 \
                                problem details whose `code` is stable: `invalid-request`, `malformed-body`, \
                                `unauthorized`, `not-found`, `method-not-allowed`, `session-closed`, \
                                `payload-too-large`, `unsupported-media-type`, `model-error` (502), \
                                `model-unavailable` (503), `model-timeout` (504), `internal-error` (500)."""))
                .components(new Components().addSecuritySchemes("apiKey", new SecurityScheme()
                        .type(SecurityScheme.Type.HTTP)
                        .scheme("bearer")
                        .description("A tenant's API key, or the bootstrap key for /admin endpoints")))
                .addSecurityItem(new SecurityRequirement().addList("apiKey"));
    }
}
