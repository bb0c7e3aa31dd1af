package dev.memoir;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Keeps methods short enough to follow: no method or constructor of the service is over {@value #LIMIT} lines, from
 * its name to its closing brace. A method that grows past it is split by its phases, as {@code ConversationPlanner.plan}
 * and {@code ExportReader.conversations} were. Lines are counted in the source with comments, strings and text blocks
 * blanked, so that a brace in a literal is not taken for the code's.
 */
class MethodSizeTest {

    static final int LIMIT = 60;

    private static final Pattern HEADER =
            Pattern.compile("\\b(\\w+)\\s*\\((?:[^(){};]++|\\([^(){};]*+\\))*+\\)\\s*+(?:throws\\s+[\\w.,\\s]+)?\\{");
    private static final Pattern TYPE_BEFORE = Pattern.compile("\\b(record|class|enum|interface)\\s*$");
    private static final Set<String> NOT_METHODS =
            Set.of("if", "for", "while", "switch", "catch", "synchronized", "try", "return", "new", "else");

    @Test
    void noMethodIsOverTheLimit() throws IOException {
        List<String> tooLong = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                for (String method : longMethods(Files.readString(file))) {
                    tooLong.add(file + ": " + method);
                }
            }
        }
        assertThat(tooLong).as("methods over %d lines", LIMIT).isEmpty();
    }

    @Test
    void theCountSeesALongMethodAndNotBracesInLiterals() {
        String body = "        x();\n".repeat(LIMIT);
        assertThat(longMethods("class A {\n    void a() {\n" + body + "    }\n}\n"))
                .containsExactly("a (62 lines)");
        assertThat(longMethods("class A {\n    void a() {\n" + body.substring(26) + "    }\n}\n"))
                .isEmpty();
        String literals = "        char c = '{'; String s = \"{{\"; // {\n".repeat(LIMIT - 3);
        assertThat(longMethods("class A {\n    void a() {\n" + literals + "        y();\n    }\n    void b() {\n" + body
                        + "    }\n}\n"))
                .containsExactly("b (62 lines)");
        assertThat(longMethods("record R(int a) {\n" + body + "}\n")).isEmpty();
    }

    static List<String> longMethods(String source) {
        String code = blanked(source);
        List<String> found = new ArrayList<>();
        Matcher header = HEADER.matcher(code);
        while (header.find()) {
            String before = code.substring(Math.max(0, header.start() - 40), header.start())
                    .stripTrailing();
            if (NOT_METHODS.contains(header.group(1))
                    || TYPE_BEFORE.matcher(before).find()
                    || before.endsWith("->")
                    || before.endsWith("=")
                    || before.endsWith("new")) {
                continue;
            }
            int close = closing(code, header.end() - 1);
            int lines = lineOf(code, close) - lineOf(code, header.start()) + 1;
            if (lines > LIMIT) {
                found.add(header.group(1) + " (" + lines + " lines)");
            }
        }
        return found;
    }

    private static int closing(String code, int open) {
        int depth = 0;
        for (int i = open; i < code.length(); i++) {
            if (code.charAt(i) == '{') {
                depth++;
            } else if (code.charAt(i) == '}' && --depth == 0) {
                return i;
            }
        }
        return code.length() - 1;
    }

    private static int lineOf(String code, int index) {
        int line = 1;
        for (int i = 0; i < index; i++) {
            if (code.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    /** The source with comments, text blocks, strings and characters blanked; line breaks kept. */
    private static String blanked(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        while (i < source.length()) {
            int end;
            if (source.startsWith("\"\"\"", i)) {
                end = source.indexOf("\"\"\"", i + 3) + 3;
            } else if (source.startsWith("//", i)) {
                end = source.indexOf('\n', i);
                end = end < 0 ? source.length() : end;
            } else if (source.startsWith("/*", i)) {
                end = source.indexOf("*/", i + 2) + 2;
            } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
                char quote = source.charAt(i);
                end = i + 1;
                while (source.charAt(end) != quote) {
                    end += source.charAt(end) == '\\' ? 2 : 1;
                }
                end++;
            } else {
                out.append(source.charAt(i++));
                continue;
            }
            for (int j = i; j < end; j++) {
                out.append(source.charAt(j) == '\n' ? '\n' : ' ');
            }
            i = end;
        }
        return out.toString();
    }
}
