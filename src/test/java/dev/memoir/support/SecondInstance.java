package dev.memoir.support;

import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import dev.memoir.MemoirApplication;

/**
 * A second Memoir instance beside the tests' own, on its own port, with the same settings, database and model
 * server: two instances of one deployment. Close it when done; until then it takes jobs from the shared queue too.
 */
public final class SecondInstance implements AutoCloseable {

    private final ConfigurableApplicationContext context;

    private SecondInstance(ConfigurableApplicationContext context) {
        this.context = context;
    }

    public static SecondInstance start() {
        List<String> arguments = new ArrayList<>();
        IntegrationTest.settings().forEach((name, value) -> arguments.add("--" + name + "=" + value.get()));
        arguments.add("--server.port=0");
        return new SecondInstance(
                new SpringApplicationBuilder(MemoirApplication.class).run(arguments.toArray(String[]::new)));
    }

    public Api api() {
        return new Api(((WebServerApplicationContext) context).getWebServer().getPort());
    }

    /** One of this instance's beans, for a test that drives it the way its own scheduler would. */
    public <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    @Override
    public void close() {
        context.close();
    }
}
