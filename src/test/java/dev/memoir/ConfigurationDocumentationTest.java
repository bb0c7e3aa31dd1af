package dev.memoir;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The settings table of docs/configuration.md against the configuration metadata that the compiler writes from the
 * {@code @ConfigurationProperties} records: every {@code memoir.*} setting is documented, nothing documented is
 * missing from the code, and each documented default is the code's.
 */
class ConfigurationDocumentationTest {

    private static final Pattern ROW =
            Pattern.compile("^\\| `(memoir\\.[a-z0-9.\\-]+)` \\| [^|]*\\| ([^|]*) \\|", Pattern.MULTILINE);

    /** A row's setting and its environment-variable column, when that names one variable. */
    private static final Pattern ENVIRONMENT_ROW =
            Pattern.compile("^\\| `(memoir\\.[a-z0-9.\\-]+)` \\| `([A-Z0-9_]+)` \\|", Pattern.MULTILINE);

    private record Setting(String type, String defaultValue) {}

    private static Map<String, Setting> codeSettings() throws IOException {
        Map<String, Setting> settings = new HashMap<>();
        try (InputStream metadata = ConfigurationDocumentationTest.class.getResourceAsStream(
                "/META-INF/spring-configuration-metadata.json")) {
            assertThat(metadata)
                    .as("configuration metadata (spring-boot-configuration-processor)")
                    .isNotNull();
            for (JsonNode property :
                    JsonMapper.builder().build().readTree(metadata).path("properties")) {
                String name = property.path("name").asString();
                if (name.startsWith("memoir.")) {
                    JsonNode value = property.path("defaultValue");
                    settings.put(
                            name,
                            new Setting(
                                    property.path("type").asString(),
                                    value.isMissingNode() || value.isNull() ? null : value.asString()));
                }
            }
        }
        return settings;
    }

    private static Map<String, String> documentedSettings() throws IOException {
        String table = Files.readString(Path.of("docs/configuration.md"));
        Map<String, String> rows = new HashMap<>();
        Matcher row = ROW.matcher(table);
        while (row.find()) {
            rows.put(row.group(1), row.group(2).strip());
        }
        return rows;
    }

    private static boolean isMap(Setting setting) {
        return setting.type().startsWith("java.util.Map");
    }

    @Test
    void everySettingInTheCodeHasADocumentedRowAndEveryRowASetting() throws IOException {
        Map<String, Setting> code = codeSettings();
        Map<String, String> rows = documentedSettings();
        assertThat(code).as("memoir.* settings in the code").hasSizeGreaterThan(40);

        Set<String> undocumented = new HashSet<>();
        code.forEach((name, setting) -> {
            boolean documented = isMap(setting)
                    ? rows.keySet().stream().anyMatch(row -> row.startsWith(name + "."))
                    : rows.containsKey(name);
            if (!documented) {
                undocumented.add(name);
            }
        });
        Set<String> unknown = new HashSet<>();
        rows.keySet().forEach(row -> {
            boolean known = code.containsKey(row)
                    || code.entrySet().stream().anyMatch(e -> isMap(e.getValue()) && row.startsWith(e.getKey() + "."));
            if (!known) {
                unknown.add(row);
            }
        });

        assertThat(undocumented)
                .as("settings missing from docs/configuration.md")
                .isEmpty();
        assertThat(unknown).as("docs/configuration.md rows naming no setting").isEmpty();
    }

    @Test
    void everyDocumentedDefaultIsTheCodesDefault() throws IOException {
        Map<String, Setting> code = codeSettings();
        Map<String, String> rows = documentedSettings();

        rows.forEach((name, documented) -> {
            Setting setting = code.get(name);
            if (setting == null || isMap(setting)) {
                return;
            }
            if (setting.defaultValue() == null) {
                assertThat(documented)
                        .as(name + ": no default in the code, so none in code font")
                        .doesNotStartWith("`");
                return;
            }
            assertThat(documented).as(name).startsWith("`").endsWith("`");
            String value = documented.substring(1, documented.length() - 1);
            if (value.matches("-?[0-9.]+") && setting.defaultValue().matches("-?[0-9.]+")) {
                assertThat(Double.parseDouble(value)).as(name).isEqualTo(Double.parseDouble(setting.defaultValue()));
            } else {
                assertThat(value).as(name).isEqualToIgnoringCase(setting.defaultValue());
            }
        });
    }

    /**
     * Each environment variable the table names sets its row's setting, as Spring Boot reads the process's
     * environment: a variable spelled in a way the binder does not map would be ignored without a word.
     */
    @Test
    void everyDocumentedEnvironmentVariableSetsItsSetting() throws IOException {
        Matcher row = ENVIRONMENT_ROW.matcher(Files.readString(Path.of("docs/configuration.md")));
        List<String> checked = new java.util.ArrayList<>();
        while (row.find()) {
            String setting = row.group(1);
            String variable = row.group(2);
            StandardEnvironment environment = new StandardEnvironment();
            environment.getPropertySources().remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
            environment.getPropertySources().remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
            environment
                    .getPropertySources()
                    .addFirst(new SystemEnvironmentPropertySource(
                            StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                            Map.of(variable, "probe-value")));
            ConfigurationPropertySources.attach(environment);
            assertThat(Binder.get(environment).bind(setting, String.class).orElse(null))
                    .as("%s in the environment sets %s", variable, setting)
                    .isEqualTo("probe-value");
            checked.add(setting);
        }
        assertThat(checked).as("rows with one environment variable").hasSizeGreaterThan(80);
    }
}
