package dev.memoir.common.wire;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/**
 * A user id in its one canonical form, everywhere it is accepted (creating a session, listing, searching,
 * erasing): an id with surrounding spaces or invisible characters is refused rather than quietly changed, so an
 * erase can never look for a different spelling than the one stored.
 */
@Documented
@NotBlank
@Size(max = FieldConstraints.USER_ID)
@Constraint(validatedBy = UserIdentifier.Validator.class)
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT, ElementType.TYPE_USE})
@Retention(RetentionPolicy.RUNTIME)
public @interface UserIdentifier {

    String message() default "must not start or end with white space nor contain control or invisible characters";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<UserIdentifier, String> {
        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            return value == null || value.isBlank() || TextSafety.isCanonicalIdentifier(value);
        }
    }
}
