package dev.memoir.support;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The PostgreSQL with pgvector that tests run against: a Testcontainers pgvector container where Docker is
 * available, otherwise the local server that scripts/local-postgres.sh installs (database memoir_test), or the
 * one named by MEMOIR_TEST_DB_URL.
 */
public final class TestDatabase {

    private static final String IMAGE = "pgvector/pgvector:0.8.6-pg17";

    private static final TestDatabase INSTANCE = start();

    private final String url;
    private final String username;
    private final String password;

    private TestDatabase(String url, String username, String password) {
        this.url = url;
        this.username = username;
        this.password = password;
    }

    public static TestDatabase instance() {
        return INSTANCE;
    }

    private static TestDatabase start() {
        String explicitUrl = System.getenv("MEMOIR_TEST_DB_URL");
        if (explicitUrl == null && dockerAvailable()) {
            PostgreSQLContainer container = new PostgreSQLContainer(IMAGE)
                    .withDatabaseName("memoir_test")
                    .withUsername("memoir")
                    .withPassword("memoir");
            container.start();
            return new TestDatabase(container.getJdbcUrl(), container.getUsername(), container.getPassword());
        }
        return new TestDatabase(
                explicitUrl != null ? explicitUrl : "jdbc:postgresql://127.0.0.1:5432/memoir_test",
                envOr("MEMOIR_TEST_DB_USER", "memoir"),
                envOr("MEMOIR_TEST_DB_PASSWORD", "memoir"));
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static String envOr(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    public String url() {
        return url;
    }

    public String username() {
        return username;
    }

    public String password() {
        return password;
    }

    /** Points an application context at this database. */
    public void register(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", this::url);
        registry.add("spring.datasource.username", this::username);
        registry.add("spring.datasource.password", this::password);
    }
}
