package dev.memoir;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Every relative link in README.md, CHANGELOG.md and docs/*.md leads somewhere: the file exists and, for a link into
 * a Markdown file, the heading its anchor names exists too (anchors as GitHub makes them from headings).
 */
class DocumentationLinksTest {

    private static final Pattern FENCE = Pattern.compile("(?ms)^\\s*```.*?^\\s*```[^\\n]*$");
    private static final Pattern INLINE_CODE = Pattern.compile("`[^`\\n]*`");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6}\\s+(.+?)\\s*#*\\s*$");

    private static List<Path> documents() throws IOException {
        List<Path> documents = new ArrayList<>(List.of(Path.of("README.md"), Path.of("CHANGELOG.md")));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(documents::add);
        }
        return documents;
    }

    private static String withoutCode(String markdown) {
        return INLINE_CODE.matcher(FENCE.matcher(markdown).replaceAll("")).replaceAll("");
    }

    /** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as dashes. */
    private static Set<String> anchors(Path document) throws IOException {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        Matcher heading =
                HEADING.matcher(FENCE.matcher(Files.readString(document)).replaceAll(""));
        while (heading.find()) {
            String slug = heading.group(1)
                    .toLowerCase(Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{N} _-]", "")
                    .replace(' ', '-');
            int repeats = seen.merge(slug, 1, Integer::sum) - 1;
            anchors.add(repeats == 0 ? slug : slug + "-" + repeats);
        }
        return anchors;
    }

    @Test
    void everyRelativeLinkLeadsToAFileAndHeadingThatExist() throws IOException {
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path document : documents()) {
            Matcher link = LINK.matcher(withoutCode(Files.readString(document)));
            while (link.find()) {
                String target = link.group(1);
                if (target.matches("^[a-z]+:.*")) {
                    continue;
                }
                checked++;
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path resolved = file.isEmpty()
                        ? document
                        : document.resolveSibling(file).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(document + ": " + target + " (no such file)");
                } else if (hash >= 0
                        && resolved.toString().endsWith(".md")
                        && !anchors(resolved).contains(target.substring(hash + 1))) {
                    broken.add(document + ": " + target + " (no such heading)");
                }
            }
        }
        assertThat(checked).as("relative links checked").isGreaterThan(20);
        assertThat(broken).as("broken relative links").isEmpty();
    }
}
