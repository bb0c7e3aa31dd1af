package dev.memoir.archive;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * New ids for an import, derived from the archive's: the same old id always maps to the same new one within one
 * import, so references need no table of the ids seen, and a random salt makes each import's ids its own (importing
 * one archive twice, as two users, gives two sets of ids).
 */
final class IdRemap {

    private static final Pattern UUID_TEXT = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private final byte[] salt = new byte[16];

    IdRemap() {
        new SecureRandom().nextBytes(salt);
    }

    UUID map(UUID old) {
        if (old == null) {
            return null;
        }
        ByteBuffer bytes = ByteBuffer.allocate(32).put(salt).putLong(old.getMostSignificantBits())
                .putLong(old.getLeastSignificantBits());
        return UUID.nameUUIDFromBytes(bytes.array());
    }

    List<UUID> map(List<UUID> old) {
        return old == null ? null : old.stream().map(this::map).toList();
    }

    /** Text with every id in it mapped (a dedup key naming a turn, trials naming memories). */
    String mapIn(String text) {
        if (text == null) {
            return null;
        }
        Matcher matcher = UUID_TEXT.matcher(text);
        return matcher.replaceAll(match -> map(UUID.fromString(match.group())).toString());
    }
}
