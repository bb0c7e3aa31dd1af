package dev.memoir.common.prompt;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Stored text as a prompt quotes it: data about the past, which no stored text can turn into the prompt's own
 * structure. Every prompt Memoir sends is laid out in lines that start with Memoir's own prefixes (section headers
 * such as {@code [Memory]:}, numbered entries, dialogue lines, the memory block's delimiters, lines indented with
 * spaces); a stored text is always put after such a prefix. So a quoted text:
 * <ul>
 *   <li>starts every line after its first with a tab, which no line of Memoir's own starts with: no line of it can
 *       pose as a header, an entry, a speaker's line or an indented line of Memoir's, whatever it starts with;</li>
 *   <li>has its line and paragraph separators (U+2028, U+2029, NEL, vertical tab, form feed, CR) made line breaks
 *       first, so that none starts a line unseen;</li>
 *   <li>names no delimiter Memoir or a chat template uses: {@code <memory>} and {@code </memory>} (spaces inside
 *       too), role and turn markers such as {@code <|im_start|>} (and DeepSeek's with full-width bars),
 *       {@code <start_of_turn>}, {@code <tool_call>}, {@code <think>}, {@code <s>}, {@code <system>} are written with
 *       single guillemets ({@code ‹|im_start|›}), and {@code [INST]}, {@code [SYSTEM_PROMPT]}, {@code [TOOL_CALLS]},
 *       {@code <<SYS>>} and the like with a space inside ({@code [ INST ]}), so that neither a tokenizer nor a reader
 *       takes them for the real ones;</li>
 *   <li>holds no invisible or direction-changing character: bidirectional controls, zero-width spaces, Unicode tag
 *       characters (which can spell hidden text) and other format and control characters are removed; tabs, and the
 *       zero-width joiners that emoji and several scripts need, are kept.</li>
 * </ul>
 * A text that stands on lines of its own, with no prefix of Memoir's before it, is a {@link #block}: every line of
 * it starts with a tab. The words themselves are kept: a quoted text reads as what was said.
 */
public final class QuotedText {

    /** Markers in angle brackets: Memoir's block and the chat templates' roles, turns and tools, in any case. */
    private static final Pattern ANGLED = Pattern.compile(
            "(?i)<\\s*(/?)\\s*(memory|system|user|assistant|instructions?|s|start_of_turn|end_of_turn|tool_call"
                    + "|tool_response|tool_calls|think|im_start|im_end)\\s*>"
                    + "|<([|\\uFF5C])([^|\\uFF5C\\s]{1,40})([|\\uFF5C])>");

    /** Markers in square or double angle brackets: Llama 2's and Mistral's. */
    private static final Pattern BRACKETED =
            Pattern.compile("\\[(/?)(INST|SYS|SYSTEM_PROMPT|TOOL_CALLS|AVAILABLE_TOOLS|TOOL_RESULTS)\\]|<<(/?)SYS>>");

    private static final String CONTINUATION = "\n\t";

    private QuotedText() {}

    /** The stored text as a prompt may show it after a prefix of Memoir's ({@code "3. [fact] "}, {@code "user: "}). */
    public static String of(String stored) {
        if (stored == null || stored.isEmpty()) {
            return stored;
        }
        return inline(stored).replace("\n", CONTINUATION);
    }

    /**
     * The stored text as a prompt may show it inside a JSON string or a message of its own, whose quoting keeps its
     * lines: only its separators, hidden characters and delimiters are taken care of.
     */
    public static String inline(String stored) {
        if (stored == null || stored.isEmpty()) {
            return stored;
        }
        String text = visibleOnly(stored);
        text = replaceAll(ANGLED, text, marker -> "‹" + marker.substring(1, marker.length() - 1) + "›");
        return replaceAll(
                BRACKETED,
                text,
                marker -> marker.startsWith("<<")
                        ? "<< " + marker.substring(2, marker.length() - 2) + " >>"
                        : "[ " + marker.substring(1, marker.length() - 1) + " ]");
    }

    /** The stored text as a prompt may show it on lines of its own: every line starting with a tab. */
    public static String block(String stored) {
        return stored == null || stored.isEmpty() ? stored : "\t" + of(stored);
    }

    private static String visibleOnly(String text) {
        StringBuilder kept = new StringBuilder(text.length());
        text.replace("\r\n", "\n").codePoints().forEach(c -> {
            if (lineBreak(c)) {
                kept.append('\n');
            } else if (c == '\t' || c == 0x200C || c == 0x200D || !hidden(c)) {
                kept.appendCodePoint(c);
            }
        });
        return kept.toString();
    }

    /** What a reader may take for a new line: CR, NEL, vertical tab, form feed, the line and paragraph separators. */
    private static boolean lineBreak(int c) {
        return c == '\n' || c == '\r' || c == 0x0B || c == 0x0C || c == 0x85 || c == 0x2028 || c == 0x2029;
    }

    /** Controls, and format characters: zero-width, bidirectional, tag characters, the byte order mark. */
    private static boolean hidden(int c) {
        int type = Character.getType(c);
        return type == Character.CONTROL || type == Character.FORMAT || (c >= 0xE0000 && c <= 0xE007F);
    }

    private static String replaceAll(
            Pattern pattern, String text, java.util.function.UnaryOperator<String> replacement) {
        Matcher matcher = pattern.matcher(text);
        if (!matcher.find()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 8);
        do {
            matcher.appendReplacement(out, Matcher.quoteReplacement(replacement.apply(matcher.group())));
        } while (matcher.find());
        matcher.appendTail(out);
        return out.toString();
    }
}
