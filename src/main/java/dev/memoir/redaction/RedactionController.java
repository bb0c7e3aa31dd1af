package dev.memoir.redaction;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import dev.memoir.common.web.InvalidRequestException;
import dev.memoir.common.wire.WireNames;
import dev.memoir.tenant.TenantId;

@RestController
@RequestMapping("/redaction/policy")
@Tag(name = "Redaction")
class RedactionController {

    private static final String CLASSES = " Classes: api-key, private-key (PEM), payment-card (Luhn-checked), iban "
            + "(country length and mod 97), email, phone (valid for libphonenumber). Actions: off (kept as written), "
            + "mask (replaced by [class #token], the token stable within the tenant) or refuse (a request holding it "
            + "answers 422 sensitive-data-refused and stores nothing; an export's conversation holding it is reported "
            + "refused). Applied before anything is stored, embedded, exported, sent to a model or a webhook; a change "
            + "applies to what comes after it, within memoir.redaction.policy-refresh on other instances.";

    private final RedactionPolicies policies;

    RedactionController(RedactionPolicies policies) {
        this.policies = policies;
    }

    @GetMapping
    @Operation(summary = "The tenant's redaction policy, per class", description = "What applies now." + CLASSES)
    RedactionPolicyView get(TenantId tenant) {
        return view(tenant);
    }

    @PutMapping
    @Operation(
            summary = "Set the tenant's action for some classes",
            description = "A JSON object from class to action, as {\"email\": \"mask\", \"phone\": \"refuse\"}; null "
                    + "gives a class back to the deployment's default. Classes not named keep theirs." + CLASSES,
            responses = {
                @ApiResponse(responseCode = "200", description = "The policy now"),
                @ApiResponse(responseCode = "400", description = "No class, an unknown class or an unknown action")
            })
    RedactionPolicyView set(TenantId tenant, @RequestBody Map<String, String> changes) {
        if (changes == null || changes.isEmpty()) {
            throw new InvalidRequestException("body", "name at least one class, as {\"email\": \"mask\"}");
        }
        Map<SecretClass, RedactionAction> parsed = new EnumMap<>(SecretClass.class);
        changes.forEach((name, action) -> {
            SecretClass kind = parse(SecretClass.class, name, name);
            parsed.put(kind, action == null ? null : parse(RedactionAction.class, action, name));
        });
        policies.set(tenant.value(), parsed);
        return view(tenant);
    }

    @DeleteMapping
    @ResponseStatus(HttpStatus.OK)
    @Operation(
            summary = "Give every class back to the deployment's default",
            responses = {@ApiResponse(responseCode = "200", description = "The policy now")})
    RedactionPolicyView reset(TenantId tenant) {
        policies.reset(tenant.value());
        return view(tenant);
    }

    private static <E extends Enum<E>> E parse(Class<E> type, String value, String field) {
        try {
            return WireNames.parse(type, value, type == SecretClass.class ? "class" : "action");
        } catch (WireNames.UnknownValueException e) {
            throw new InvalidRequestException(field, e.getMessage());
        }
    }

    private RedactionPolicyView view(TenantId tenant) {
        Map<SecretClass, RedactionAction> own = policies.own(tenant.value());
        Map<SecretClass, RedactionAction> effective = new LinkedHashMap<>(policies.defaults());
        effective.putAll(own);
        List<RedactionPolicyView.ClassPolicy> classes = new ArrayList<>();
        effective.forEach((kind, action) -> classes.add(
                new RedactionPolicyView.ClassPolicy(kind, action, own.containsKey(kind) ? "tenant" : "default")));
        return new RedactionPolicyView(classes, policies.phoneRegion());
    }
}
