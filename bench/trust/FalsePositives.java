import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.memoir.common.prompt.InjectionSigns;

/**
 * How many ordinary dialogue texts the poisoning screen flags: run by run.sh on the lines texts.py writes. Prints,
 * per data set, the texts, those flagged, the rate and the counts per sign, and the flagged texts' openings.
 */
public class FalsePositives {

    public static void main(String[] args) throws Exception {
        Map<String, long[]> totals = new TreeMap<>();
        Map<String, Long> bySign = new TreeMap<>();
        StringBuilder examples = new StringBuilder();
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            String[] parts = line.split("\t", 3);
            String text = new String(Base64.getDecoder().decode(parts[2]), StandardCharsets.UTF_8);
            long[] counts = totals.computeIfAbsent(parts[0], k -> new long[2]);
            counts[0]++;
            List<String> signs = InjectionSigns.of(text);
            if (!signs.isEmpty()) {
                counts[1]++;
                signs.forEach(sign -> bySign.merge(parts[0] + " " + sign, 1L, Long::sum));
                String opening = text.replaceAll("\\s+", " ");
                examples.append("  ").append(parts[0]).append(' ').append(parts[1]).append(' ').append(signs)
                        .append(": ").append(opening, 0, Math.min(160, opening.length())).append('\n');
            }
        }
        totals.forEach((set, counts) -> System.out.printf(
                "%s: %d texts, %d flagged (%.2f%%)%n", set, counts[0], counts[1], 100.0 * counts[1] / counts[0]));
        bySign.forEach((sign, count) -> System.out.printf("  %s: %d%n", sign, count));
        System.out.print(examples);
    }
}
