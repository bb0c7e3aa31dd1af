package dev.memoir.tenant;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.Set;

/**
 * Decides whether a request path belongs to the operator. The decision must never be weaker than the router's:
 * Spring MVC matches decoded path segments without matrix parameters, Tomcat merges slashes and resolves dot
 * segments, and a proxy in front may decode once more. So the path is decoded until it stops changing, matrix
 * parameters are cut from every segment, backslashes count as slashes, empty and dot segments are resolved, and
 * the first segment is compared without regard to case. Anything that could reach /admin or /actuator on any of
 * those readings is operator-only.
 */
final class OperatorPaths {

    private static final Set<String> OPERATOR_ROOTS = Set.of("admin", "actuator");
    private static final int MAX_DECODE_ROUNDS = 5;

    private OperatorPaths() {}

    static boolean isOperatorPath(String rawPath) {
        String first = firstSegment(canonical(rawPath));
        return OPERATOR_ROOTS.contains(first);
    }

    static String canonical(String rawPath) {
        String path = rawPath == null ? "" : rawPath;
        for (int round = 0; round < MAX_DECODE_ROUNDS; round++) {
            String decoded = decode(path);
            if (decoded.equals(path)) {
                break;
            }
            path = decoded;
        }
        Deque<String> segments = new ArrayDeque<>();
        for (String segment : path.replace('\\', '/').split("/")) {
            int matrix = segment.indexOf(';');
            String name = (matrix >= 0 ? segment.substring(0, matrix) : segment).strip();
            if (name.isEmpty() || name.equals(".")) {
                continue;
            }
            if (name.equals("..")) {
                segments.pollLast();
                continue;
            }
            segments.addLast(name.toLowerCase(Locale.ROOT));
        }
        return "/" + String.join("/", segments);
    }

    private static String firstSegment(String canonicalPath) {
        int next = canonicalPath.indexOf('/', 1);
        return next < 0 ? canonicalPath.substring(1) : canonicalPath.substring(1, next);
    }

    /** Decodes every valid %XX escape and keeps malformed ones as they are, so one bad escape cannot hide another. */
    private static String decode(String path) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(path.length());
        int i = 0;
        while (i < path.length()) {
            char c = path.charAt(i);
            if (c == '%'
                    && i + 2 < path.length()
                    && Character.digit(path.charAt(i + 1), 16) >= 0
                    && Character.digit(path.charAt(i + 2), 16) >= 0) {
                bytes.write(Character.digit(path.charAt(i + 1), 16) * 16 + Character.digit(path.charAt(i + 2), 16));
                i += 3;
            } else {
                byte[] encoded = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(encoded, 0, encoded.length);
                i++;
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
