package dev.memoir.tenant;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

import dev.memoir.common.Hashes;

/** Makes and hashes API keys. A key carries 256 random bits, so an unsalted SHA-256 digest is safe to store. */
final class ApiKeys {

    static final String PREFIX = "mk_";
    private static final SecureRandom RANDOM = new SecureRandom();

    private ApiKeys() {}

    static String newKey() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    static String hash(String key) {
        return Hashes.sha256(key);
    }

    static boolean sameKey(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
}
