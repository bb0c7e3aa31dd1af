package dev.memoir.common.prompt;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Stored text as a prompt quotes it: data about the past, which no stored text can turn into the prompt's own
 * structure. Every prompt Memoir sends is laid out in lines whose first column is Memoir's (section headers such as
 * {@code [Memory]:}, numbered entries, dialogue lines, the {@code <memory>} block's delimiters); a stored text is
 * always put after such a prefix. So a quoted text:
 * <ul>
 *   <li>keeps every line after its first indented by two spaces: no line of it starts where a header, an entry or a
 *       speaker's line starts;</li>
 *   <li>names no delimiter Memoir or a chat template uses: {@code <memory>}, {@code </memory>}, role tags such as
 *       {@code <|im_start|>}, {@code [INST]}, {@code <<SYS>>} and {@code </s>} are written with a space inside
 *       ({@code < |im_start| >}, {@code [ INST]}) so that no tokenizer reads them as one;</li>
 *   <li>holds no invisible or direction-changing character: zero-width and bidirectional controls, Unicode tag
 *       characters (which can spell hidden text) and other format and control characters are removed, line breaks
 *       and tabs kept.</li>
 * </ul>
 * A text that stands on lines of its own, with no prefix of Memoir's before it, is a {@link #block}: every line of
 * it indented. The words themselves are kept: a quoted text reads as what was said.
 */
public final class QuotedText {

    /** Memoir's own delimiters and the chat templates' role and turn markers, in any case. */
    private static final Pattern DELIMITER = Pattern.compile("(?i)<(/?)(memory|system|user|assistant|instructions?)>"
            + "|<\\|([^|\\s]{1,40})\\|>"
            + "|\\[(/?)(INST|SYS)\\]"
            + "|<<(/?)SYS>>"
            + "|<(/?)s>");

    private QuotedText() {}

    /** The stored text as a prompt may show it after a prefix of Memoir's ({@code "3. [fact] "}, {@code "user: "}). */
    public static String of(String stored) {
        if (stored == null || stored.isEmpty()) {
            return stored;
        }
        return defanged(visibleOnly(stored)).replace("\n", "\n  ");
    }

    /**
     * The stored text as a prompt may show it inside a JSON string, whose quoting keeps its lines: only its hidden
     * characters and delimiters are taken care of.
     */
    public static String inline(String stored) {
        return stored == null || stored.isEmpty() ? stored : defanged(visibleOnly(stored));
    }

    /** The stored text as a prompt may show it on lines of its own: every line indented. */
    public static String block(String stored) {
        return stored == null || stored.isEmpty() ? stored : "  " + of(stored);
    }

    private static String visibleOnly(String text) {
        StringBuilder kept = new StringBuilder(text.length());
        text.replace("\r\n", "\n").replace('\r', '\n').codePoints().forEach(c -> {
            if (c == '\n' || c == '\t' || !hidden(c)) {
                kept.appendCodePoint(c);
            }
        });
        return kept.toString();
    }

    /** Controls, and format characters: zero-width, bidirectional, tag characters, the byte order mark. */
    private static boolean hidden(int c) {
        int type = Character.getType(c);
        return type == Character.CONTROL || type == Character.FORMAT || (c >= 0xE0000 && c <= 0xE007F);
    }

    private static String defanged(String text) {
        Matcher matcher = DELIMITER.matcher(text);
        if (!matcher.find()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 8);
        do {
            matcher.appendReplacement(out, Matcher.quoteReplacement(spaced(matcher.group())));
        } while (matcher.find());
        matcher.appendTail(out);
        return out.toString();
    }

    /** The marker with a space after its opening bracket and before its closing one. */
    private static String spaced(String marker) {
        if (marker.startsWith("<<")) {
            return "<< " + marker.substring(2, marker.length() - 2) + " >>";
        }
        if (marker.startsWith("<|")) {
            return "< |" + marker.substring(2, marker.length() - 2) + "| >";
        }
        return marker.charAt(0) + " " + marker.substring(1, marker.length() - 1) + " "
                + marker.charAt(marker.length() - 1);
    }
}
