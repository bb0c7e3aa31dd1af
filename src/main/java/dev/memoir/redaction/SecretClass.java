package dev.memoir.redaction;

import java.util.Locale;

/** What a masked secret was; its wire name is what the mask shows. */
public enum SecretClass {
    /** An API key, access token or password given as one (provider prefixes, bearer tokens, JWTs, key=value). */
    API_KEY,
    /** A PEM private key block. */
    PRIVATE_KEY,
    /** A payment card number that passes the Luhn check. */
    PAYMENT_CARD;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
