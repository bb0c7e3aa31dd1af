package dev.memoir.memory;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The partitions of memory_records that an EXPLAIN output reads or writes. */
public final class PlanPartitions {

    private static final Pattern PARTITION = Pattern.compile("memory_records_p\\d\\d");

    private PlanPartitions() {}

    public static Set<String> in(List<String> plan) {
        Set<String> partitions = new TreeSet<>();
        Matcher partition = PARTITION.matcher(String.join("\n", plan));
        while (partition.find()) {
            partitions.add(partition.group());
        }
        return partitions;
    }
}
