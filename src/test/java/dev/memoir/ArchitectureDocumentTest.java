package dev.memoir;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModules;

/**
 * Keeps docs/architecture.md's lists of each module true to the code: a module's section names every type its top
 * package offers other modules and every internal sub-package it has, and no type the document names in code
 * spans is gone from the code (a renamed or removed class fails here, not in a reader's head).
 */
class ArchitectureDocumentTest {

    private static final Path SOURCES = Path.of("src/main/java/dev/memoir");
    private static final Path DOCUMENT = Path.of("docs/architecture.md");
    private static final Pattern DECLARATION = Pattern.compile(
            "^\\s*(?:public |protected |private |static |final |sealed |non-sealed |abstract )*"
                    + "(?:class|record|interface|enum|@interface) (\\w+)",
            Pattern.MULTILINE);
    private static final Pattern PUBLIC_TOP_TYPE = Pattern.compile(
            "^public (?:final |sealed |abstract )*(?:class|record|interface|enum|@interface) (\\w+)",
            Pattern.MULTILINE);
    /** A code span holding a type's name: upper camel case, optionally followed by a member or its arguments. */
    private static final Pattern TYPE_SPAN = Pattern.compile("`([A-Z][a-z]+(?:[A-Z][a-z0-9]*)+)(?:[.(][^`]*)?`");
    /** Types of the libraries Memoir builds on, which the document names beside Memoir's own. */
    private static final Set<String> LIBRARY_TYPES = Set.of(
            "ApplicationModule",
            "ApplicationModules",
            "BreakIterator",
            "TransactionAwareDataSourceProxy",
            "SyncToolSpecification",
            "WebMvcStatelessServerTransport",
            "ChatClient",
            "ChatModel",
            "EmbeddingModel",
            "ProblemDetail",
            "OncePerRequestFilter",
            "RestControllerAdvice",
            "SmartLifecycle",
            "FlywayConfigurationCustomizer",
            "OpenApiCustomizer",
            "ObservationRegistry",
            "SchedulerClient",
            "TaskDescriptor",
            "RecurringTask",
            "OneTimeTask",
            "CustomTask",
            "PartitionKey",
            "JsonValue",
            "JsonMapper",
            "JdbcClient",
            "TransactionTemplate",
            "HttpClient",
            "MeterRegistry",
            "CallAdvisor",
            "StreamAdvisor",
            "ResponseEntityExceptionHandler",
            "WebMvcConfigurer",
            "SpanExporter",
            "ArchUnit",
            "PostgreSQLContainer");

    @Test
    void eachModuleSectionNamesWhatTheModuleOffersAndItsInternalPackages() throws IOException {
        String document = Files.readString(DOCUMENT);
        List<String> missing = new ArrayList<>();
        for (Path module : modules()) {
            String name = module.getFileName().toString();
            String section = section(document, name);
            if (section == null) {
                missing.add("a section \"### `" + name + "`\"");
                continue;
            }
            for (String type : publicTopTypes(module)) {
                if (!section.contains("`" + type)) {
                    missing.add(name + ": `" + type + "` (offered to other modules)");
                }
            }
            for (String inside : subPackages(module)) {
                if (!section.contains("`" + name + "." + inside + "`")) {
                    missing.add(name + ": `" + name + "." + inside + "` (an internal package)");
                }
            }
        }
        assertThat(missing).as("what docs/architecture.md does not name").isEmpty();
    }

    @Test
    void eachModuleSectionSaysWhichModulesItUses() throws IOException {
        String document = Files.readString(DOCUMENT);
        ApplicationModules modules = ApplicationModules.of(MemoirApplication.class);
        List<String> wrong = new ArrayList<>();
        modules.forEach(module -> {
            String name = module.getIdentifier().toString();
            Set<String> uses = module.getDirectDependencies(modules)
                    .uniqueModules()
                    .map(used -> used.getIdentifier().toString())
                    .filter(used -> !used.equals(name))
                    .collect(Collectors.toCollection(TreeSet::new));
            String section = section(document, name);
            Matcher line =
                    section == null ? null : Pattern.compile("\nUses ([^\n]*)").matcher(section);
            Set<String> said = new TreeSet<>();
            if (line != null && line.find() && !line.group(1).startsWith("no other module")) {
                Matcher used = Pattern.compile("`(\\w+)`").matcher(line.group(1));
                while (used.find()) {
                    said.add(used.group(1));
                }
            }
            if (!said.equals(uses)) {
                wrong.add(name + " uses " + uses + ", its section says " + said);
            }
        });
        assertThat(wrong).as("the \"Uses\" lines of docs/architecture.md").isEmpty();
    }

    @Test
    void everyTypeTheDocumentNamesIsInTheCode() throws IOException {
        Set<String> declared = declaredTypes();
        Set<String> gone = new TreeSet<>();
        Matcher span = TYPE_SPAN.matcher(Files.readString(DOCUMENT));
        while (span.find()) {
            String type = span.group(1);
            if (!declared.contains(type) && !LIBRARY_TYPES.contains(type)) {
                gone.add(type);
            }
        }
        assertThat(gone)
                .as("types docs/architecture.md names that no source declares")
                .isEmpty();
    }

    private static List<Path> modules() throws IOException {
        try (Stream<Path> children = Files.list(SOURCES)) {
            return children.filter(Files::isDirectory).sorted().toList();
        }
    }

    private static List<String> subPackages(Path module) throws IOException {
        try (Stream<Path> children = Files.list(module)) {
            return children.filter(Files::isDirectory)
                    .map(dir -> dir.getFileName().toString())
                    .sorted()
                    .toList();
        }
    }

    private static Set<String> publicTopTypes(Path module) throws IOException {
        Set<String> types = new TreeSet<>();
        try (Stream<Path> files = Files.list(module)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Matcher declaration = PUBLIC_TOP_TYPE.matcher(Files.readString(file));
                if (declaration.find()) {
                    types.add(declaration.group(1));
                }
            }
        }
        return types;
    }

    /**
     * Every type declared in the service's and the tests' sources (the document names tests and fixtures too), the
     * benchmarks' and the clients'.
     */
    private static Set<String> declaredTypes() throws IOException {
        Set<String> types = new TreeSet<>();
        for (Path root :
                List.of(Path.of("src/main/java"), Path.of("src/test/java"), Path.of("bench"), Path.of("clients"))) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file :
                        files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    Matcher declaration = DECLARATION.matcher(Files.readString(file));
                    while (declaration.find()) {
                        types.add(declaration.group(1));
                    }
                }
            }
        }
        return types;
    }

    /** The text under "### `module`", up to the next heading of that level or above. */
    private static String section(String document, String module) {
        int start = document.indexOf("\n### `" + module + "`\n");
        if (start < 0) {
            return null;
        }
        Matcher next = Pattern.compile("\n##+ ").matcher(document);
        return document.substring(start, next.find(start + 1) ? next.start() : document.length());
    }
}
