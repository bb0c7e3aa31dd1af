package dev.memoir.redaction;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonProperty;

@Schema(description = "What is done with each class of secret or personal data in the tenant's texts")
record RedactionPolicyView(
        List<ClassPolicy> classes,

        @Schema(description = "The region whose national phone formats are recognised (memoir.redaction.phone-region)")
        String phoneRegion) {

    @Schema(description = "One class's action, and whether the tenant chose it or the deployment's default applies")
    record ClassPolicy(
            @Schema(
                    name = "class",
                    description = "api-key, private-key, payment-card, iban, email or phone",
                    example = "email")
            @JsonProperty("class")
            SecretClass kind,

            @Schema(description = "off (kept as written), mask or refuse (the request answers 422)", example = "mask")
            RedactionAction action,

            @Schema(
                    description = "tenant when the tenant set it, default when the deployment's applies",
                    example = "default")
            String source) {}
}
