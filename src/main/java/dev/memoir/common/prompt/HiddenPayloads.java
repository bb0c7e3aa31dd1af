package dev.memoir.common.prompt;

import java.util.regex.Pattern;

/**
 * What {@link InjectionSigns} calls hidden: characters that show nothing (Unicode tag characters, bidirectional
 * overrides, runs of zero-width characters) and long encoded blobs a model may be told to decode.
 */
final class HiddenPayloads {

    private static final Pattern BASE64 = Pattern.compile("[A-Za-z0-9+/]{256,}={0,2}");

    // Long base64 that people paste for what it is: an SSH public key, a kubeconfig's certificate or key data, a PEM
    // certificate (its lines are short anyway). Left out before looking for blobs.
    private static final Pattern BENIGN_BLOBS = Pattern.compile(
            "\\b(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\\d+|sk-ssh-ed25519@openssh\\.com) [A-Za-z0-9+/=]++"
                    + "|\\b[\\w-]+-data:[ \\t]*[A-Za-z0-9+/=]++");
    private static final Pattern HEX = Pattern.compile("(?<![0-9a-fA-F])[0-9a-fA-F]{256,}");
    private static final Pattern DATA_URI = Pattern.compile("data:[\\w.+-]+/[\\w.+-]+;base64,[A-Za-z0-9+/=]{64,}");

    private HiddenPayloads() {}

    /** A long base64 run that is not words, a hex run of digits and letters, or a base64 data URI. */
    static boolean carriesBlob(String text) {
        String unkeyed = BENIGN_BLOBS.matcher(text).replaceAll(" ");
        return BASE64.matcher(unkeyed).find() && !looksLikeWords(unkeyed)
                || hexBlob(unkeyed)
                || DATA_URI.matcher(unkeyed).find();
    }

    static boolean hidesCharacters(String text) {
        int zeroWidth = 0;
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            if (c >= 0xE0000 && c <= 0xE007F) {
                int flagEnd = subdivisionFlagEnd(text, i);
                if (flagEnd < 0) {
                    return true;
                }
                i = flagEnd;
                continue;
            }
            if ((c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069)) {
                return true;
            }
            if (c == 0x200B || c == 0x200C || c == 0x2060 || c == 0xFEFF || c == 0x180E) {
                zeroWidth++;
            }
            i += Character.charCount(c);
        }
        return zeroWidth >= 5;
    }

    // A hex run is digits and letters mixed: a run of one letter ("aaaa…", a placeholder, a test's filler) is not.
    private static boolean hexBlob(String text) {
        var run = HEX.matcher(text);
        while (run.find()) {
            String blob = run.group();
            long digits = blob.chars().filter(Character::isDigit).count();
            if (digits * 5 >= blob.length() && digits < blob.length()) {
                return true;
            }
        }
        return false;
    }

    // The flags of England, Scotland and Wales are a black flag, two to six tag letters and a cancel tag: the one
    // ordinary use of tag characters. Answers where such a flag's tags end, or -1.
    private static int subdivisionFlagEnd(String text, int tags) {
        if (tags < 2 || text.codePointBefore(tags) != 0x1F3F4) {
            return -1;
        }
        int i = tags;
        int letters = 0;
        while (i < text.length() && letters <= 6) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            if (c == 0xE007F) {
                return letters >= 2 ? i : -1;
            }
            if (c < 0xE0061 || c > 0xE007A) {
                return -1;
            }
            letters++;
        }
        return -1;
    }

    // A run of 256 letters and digits with no space is a blob only if it does not read as text: a base64 run has
    // both cases and digits spread through it.
    private static boolean looksLikeWords(String text) {
        var run = BASE64.matcher(text);
        while (run.find()) {
            String blob = run.group();
            long digits = blob.chars().filter(Character::isDigit).count();
            long upper = blob.chars().filter(Character::isUpperCase).count();
            if (digits * 20 >= blob.length() && upper * 10 >= blob.length()) {
                return false;
            }
        }
        return true;
    }
}
