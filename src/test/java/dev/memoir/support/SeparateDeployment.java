package dev.memoir.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import dev.memoir.MemoirApplication;

/**
 * Memoir started as a service is, with settings of its own on top of the tests' (the same model server), in a
 * database schema of its own created afresh: a deployment apart from the tests' shared instance, whose scheduler
 * shares no job, no recurring schedule and no row with it. Close it when done.
 */
public final class SeparateDeployment implements AutoCloseable {

    private final ConfigurableApplicationContext context;

    private SeparateDeployment(ConfigurableApplicationContext context) {
        this.context = context;
    }

    /** Drops {@code schema} if it is there, then starts Memoir in it (migrated from nothing) with the settings. */
    public static SeparateDeployment start(String schema, Map<String, String> settings) {
        return run(inSchema(schema, settings));
    }

    /**
     * The command-line arguments that start Memoir as {@link #start} does, for a JVM of its own: for a test of what
     * only a process's environment variables configure. Drops {@code schema} if it is there.
     */
    public static List<String> processArguments(String schema, Map<String, String> settings) {
        return arguments(inSchema(schema, settings));
    }

    private static Map<String, Object> inSchema(String schema, Map<String, String> settings) {
        TestDatabase database = TestDatabase.instance();
        dropSchema(database, schema);
        Map<String, Object> all = new LinkedHashMap<>();
        IntegrationTest.settings().forEach((name, value) -> all.put(name, value.get()));
        // pgvector's type lives in public, where the test database's superuser created the extension.
        all.put(
                "spring.datasource.url",
                database.url() + (database.url().contains("?") ? "&" : "?") + "currentSchema=" + schema + ",public");
        all.put("spring.flyway.schemas", schema);
        all.put("server.port", "0");
        all.putAll(settings);
        return all;
    }

    /**
     * Starts Memoir against another database than the tests' (CitusTest: a Citus coordinator), with the tests'
     * settings (the same model server) and these on top; Flyway migrates the database's default schema.
     */
    public static SeparateDeployment startAt(
            String url, String username, String password, Map<String, String> settings) {
        Map<String, Object> all = new LinkedHashMap<>();
        IntegrationTest.settings().forEach((name, value) -> all.put(name, value.get()));
        all.put("spring.datasource.url", url);
        all.put("spring.datasource.username", username);
        all.put("spring.datasource.password", password);
        all.put("server.port", "0");
        all.putAll(settings);
        return run(all);
    }

    private static SeparateDeployment run(Map<String, Object> all) {
        return new SeparateDeployment(new SpringApplicationBuilder(MemoirApplication.class)
                .run(arguments(all).toArray(String[]::new)));
    }

    private static List<String> arguments(Map<String, Object> all) {
        List<String> arguments = new ArrayList<>();
        all.forEach((name, value) -> arguments.add("--" + name + "=" + value));
        return arguments;
    }

    private static void dropSchema(TestDatabase database, String schema) {
        if (!schema.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException("not a plain schema name: " + schema);
        }
        try (Connection connection =
                        DriverManager.getConnection(database.url(), database.username(), database.password());
                Statement statement = connection.createStatement()) {
            statement.execute("drop schema if exists " + schema + " cascade");
        } catch (SQLException e) {
            throw new IllegalStateException("Could not drop schema " + schema, e);
        }
    }

    public Api api() {
        return new Api(((WebServerApplicationContext) context).getWebServer().getPort());
    }

    public ConfigurableApplicationContext context() {
        return context;
    }

    public <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    @Override
    public void close() {
        context.close();
    }
}
