package dev.memoir.redaction;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.springframework.http.HttpStatus;

import dev.memoir.common.web.ApiException;

/** A text held a class the tenant's redaction policy refuses: nothing of the request is stored. */
class SensitiveDataRefusedException extends ApiException {

    private final List<String> classes;

    SensitiveDataRefusedException(Collection<SecretClass> refused) {
        super(
                HttpStatus.UNPROCESSABLE_ENTITY,
                "sensitive-data-refused",
                "The text holds " + refused.stream().map(SecretClass::wireName).collect(Collectors.joining(", "))
                        + ", which this tenant's redaction policy refuses (GET /redaction/policy): nothing of the "
                        + "request was stored. Send it without, or ask for the class to be masked instead");
        this.classes = refused.stream().map(SecretClass::wireName).toList();
    }

    @Override
    public Map<String, Object> properties() {
        return Map.of("classes", classes);
    }
}
