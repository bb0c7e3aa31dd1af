package dev.memoir.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Standard Webhooks signatures: a secret is {@code whsec_} and the base64 of 24 random bytes; a delivery's
 * {@code webhook-signature} is {@code v1,} and the base64 of HMAC-SHA256, keyed with the secret's bytes, over
 * {@code <webhook-id>.<webhook-timestamp>.<body>}.
 */
final class WebhookSigner {

    private static final String PREFIX = "whsec_";
    private static final SecureRandom RANDOM = new SecureRandom();

    private WebhookSigner() {}

    static String newSecret() {
        byte[] key = new byte[24];
        RANDOM.nextBytes(key);
        return PREFIX + Base64.getEncoder().encodeToString(key);
    }

    static String signature(String secret, String id, long timestamp, String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring(PREFIX.length())), "HmacSHA256"));
            byte[] signed = mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
            return "v1," + Base64.getEncoder().encodeToString(signed);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available", e);
        }
    }
}
