package dev.memoir;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.github.kagkarlsson.scheduler.task.Task;

import dev.memoir.common.wire.WireNames;
import dev.memoir.support.IntegrationTest;

/**
 * The lists an operator reads are the code's: docs/running.md's job types (the {@code memoir.job.task} tag) are the
 * started service's, docs/api.md's webhook events are the events an endpoint can ask for, and every {@code memoir.*}
 * meter the service registers is named in docs/running.md or docs/api.md.
 */
class OperationsDocumentationTest extends IntegrationTest {

    @Autowired
    List<Task<?>> tasks;

    @Autowired
    MeterRegistry meters;

    @Test
    void theJobTypesRunningMdListsAreTheServicesJobTypes() throws IOException {
        String running = Files.readString(Path.of("docs/running.md"));
        Matcher row = Pattern.compile("`memoir\\.job\\.task` \\(([^)]*)\\)").matcher(running);
        assertThat(row.find()).as("running.md's memoir.job row").isTrue();
        Set<String> listed = backticked(row.group(1));
        Set<String> declared = tasks.stream().map(Task::getName).collect(Collectors.toCollection(TreeSet::new));

        assertThat(listed).as("the job types of docs/running.md").isEqualTo(declared);
    }

    @Test
    void backgroundJobsMdTablesAndCountsEveryJobTypeAndGuaranteesMdCountsThemToo() throws IOException {
        String jobs = Files.readString(Path.of("docs/background-jobs.md"));
        String table = jobs.substring(jobs.indexOf("| job | declared by"));
        Set<String> listed = new TreeSet<>();
        Matcher row = Pattern.compile("(?m)^\\| `([a-z-]+)` \\|").matcher(table);
        while (row.find()) {
            listed.add(row.group(1));
        }
        Set<String> declared = tasks.stream().map(Task::getName).collect(Collectors.toCollection(TreeSet::new));
        String count = NUMBER_WORDS.get(declared.size());

        assertThat(listed).as("the job table of docs/background-jobs.md").isEqualTo(declared);
        assertThat(jobs).as("background-jobs.md's count").contains(capitalized(count) + " job types.");
        assertThat(Files.readString(Path.of("docs/guarantees.md")))
                .as("guarantees.md's count")
                .contains("Each of the " + count + " job types");
    }

    @Test
    void theWebhookEventsApiMdListsAreTheEventsAnEndpointCanAskFor() throws Exception {
        String api = Files.readString(Path.of("docs/api.md"));
        String webhooks =
                api.substring(api.indexOf("## Webhooks"), api.indexOf("\n## ", api.indexOf("## Webhooks") + 5));
        Set<String> listed = new TreeSet<>();
        Matcher row = Pattern.compile("(?m)^\\| `([a-z-]+\\.[a-z-]+)` \\|").matcher(webhooks);
        while (row.find()) {
            listed.add(row.group(1));
        }
        Class<?> events = Class.forName("dev.memoir.webhook.WebhookEvent");
        Set<String> declared = Arrays.stream(events.getEnumConstants())
                .map(constant -> WireNames.of((Enum<?>) constant))
                .collect(Collectors.toCollection(TreeSet::new));

        assertThat(listed).as("the webhook events of docs/api.md").isEqualTo(declared);
    }

    @Test
    void everyMeterOfMemoirsIsNamedInTheDocuments() throws IOException {
        // Some meters exist once their first request is made: make a chat's worth.
        String key = api.newTenant();
        api.chat(key, api.newSession(key, "ops-docs", null), "Hello there");
        String documents = Files.readString(Path.of("docs/running.md")) + Files.readString(Path.of("docs/api.md"));
        Set<String> undocumented = meters.getMeters().stream()
                .map(Meter::getId)
                .map(Meter.Id::getName)
                .filter(name -> name.startsWith("memoir."))
                .filter(name -> !documents.contains("`" + name + "`")
                        && !documents.contains(name.replace('.', '_').replace('-', '_')))
                .collect(Collectors.toCollection(TreeSet::new));

        assertThat(undocumented)
                .as("memoir meters neither running.md nor api.md names")
                .isEmpty();
    }

    private static final List<String> NUMBER_WORDS = List.of(
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
            "twenty-one",
            "twenty-two",
            "twenty-three",
            "twenty-four",
            "twenty-five");

    private static String capitalized(String word) {
        return Character.toUpperCase(word.charAt(0)) + word.substring(1);
    }

    private static Set<String> backticked(String text) {
        Set<String> names = new TreeSet<>();
        Matcher name = Pattern.compile("`([^`]+)`").matcher(text);
        while (name.find()) {
            names.add(name.group(1));
        }
        return names;
    }
}
