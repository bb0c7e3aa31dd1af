package dev.memoir.redaction;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import dev.memoir.common.wire.WireNames;

/** What a masked secret or piece of personal data was; its wire name is what the mask shows. */
public enum SecretClass {
    /** An API key, access token or password given as one (provider prefixes, bearer tokens, JWTs, key=value). */
    API_KEY,
    /** A PEM private key block. */
    PRIVATE_KEY,
    /** A payment card number that passes the Luhn check. */
    PAYMENT_CARD,
    /** An IBAN whose length fits its country and whose check digits hold (ISO 13616, mod 97). */
    IBAN,
    /** An e-mail address. */
    EMAIL,
    /** A phone number libphonenumber finds valid (international, or national in {@code memoir.redaction.phone-region}). */
    PHONE;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    @JsonCreator
    static SecretClass fromWireName(String value) {
        return WireNames.parse(SecretClass.class, value, "class");
    }
}
