package dev.memoir.archive.user;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * New ids for an import, derived from the archive's: the same old id always maps to the same new one within one
 * import, so references need no table of the ids seen, and a random key makes each import's ids its own (importing
 * one archive twice, as two users, gives two sets of ids). The map is a block cipher (AES under the import's key),
 * so it can be run backwards: a check made on the stored rows, after they were written, names a record by the id its
 * archive gave it ({@link #original}), without a table of the ids seen either.
 */
final class IdRemap {

    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private final Cipher forward;
    private final Cipher backward;

    IdRemap() {
        byte[] key = new byte[16];
        new SecureRandom().nextBytes(key);
        try {
            forward = Cipher.getInstance("AES/ECB/NoPadding");
            forward.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
            backward = Cipher.getInstance("AES/ECB/NoPadding");
            backward.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES is part of every JDK", e);
        }
    }

    UUID map(UUID old) {
        return old == null ? null : apply(forward, old);
    }

    List<UUID> map(List<UUID> old) {
        return old == null ? null : old.stream().map(this::map).toList();
    }

    /** The archive's id of a record stored under {@code mapped}. */
    UUID original(UUID mapped) {
        return mapped == null ? null : apply(backward, mapped);
    }

    /** Text with every id in it mapped (a dedup key naming a turn, trials naming memories). */
    String mapIn(String text) {
        if (text == null) {
            return null;
        }
        Matcher matcher = UUID_TEXT.matcher(text);
        return matcher.replaceAll(match -> map(UUID.fromString(match.group())).toString());
    }

    private static UUID apply(Cipher cipher, UUID id) {
        byte[] block = ByteBuffer.allocate(16)
                .putLong(id.getMostSignificantBits())
                .putLong(id.getLeastSignificantBits())
                .array();
        ByteBuffer out;
        try {
            out = ByteBuffer.wrap(cipher.doFinal(block));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        return new UUID(out.getLong(), out.getLong());
    }
}
