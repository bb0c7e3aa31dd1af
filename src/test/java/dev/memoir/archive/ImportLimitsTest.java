package dev.memoir.archive;

import static dev.memoir.archive.ChatGptConversation.export;
import static dev.memoir.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.SeparateDeployment;

/**
 * The limits of an export's import that refuse it whole, before anything is stored: its size once decompressed,
 * one conversation's size, and the number of conversations (memoir.imports.*). A deployment of its own with small
 * limits, so that exports of a few megabytes reach them; what a zip of a few kilobytes once cost (issue 40: minutes,
 * gigabytes of heap and spool) is now refused as soon as a limit is passed.
 */
class ImportLimitsTest {

    private static final Instant T0 = Instant.parse("2024-06-01T10:00:00Z");

    private static SeparateDeployment service;
    private static Api api;

    @BeforeAll
    static void startTheService() {
        service = SeparateDeployment.start(
                "import_limits_test",
                Map.of(
                        "memoir.imports.max-export-size", "1MB",
                        "memoir.imports.max-conversation-size", "512KB",
                        "memoir.imports.max-conversations", "20"));
        api = service.api();
    }

    @AfterAll
    static void stopTheService() {
        if (service != null) {
            service.close();
        }
    }

    /**
     * A conversation of about {@code kilobytes} of JSON that costs nothing to store: its bulk is hidden messages,
     * which are read and skipped.
     */
    private static Object hiddenBulk(String id, int kilobytes) {
        ChatGptConversation conversation = new ChatGptConversation(id, "Bulk", T0);
        for (int i = 0; i < kilobytes / 50; i++) {
            conversation.text(
                    "h" + i,
                    "assistant",
                    "z".repeat(50_000),
                    T0.plusSeconds(i),
                    "metadata",
                    Map.of("is_visually_hidden_from_conversation", true));
        }
        return conversation.text("u", "user", "Hello", T0.plusSeconds(10_000)).json();
    }

    private static byte[] zipped(byte[] conversations) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            zip.putNextEntry(new ZipEntry("conversations.json"));
            zip.write(conversations);
            zip.closeEntry();
        }
        return bytes.toByteArray();
    }

    private static Api.Response importZip(String key, String userId, byte[] zip) {
        return api.postBytes("/users/" + userId + "/import/chatgpt", key, zip, "application/zip");
    }

    @Test
    void anExportLargerOnceDecompressedThanTheLimitIsRefusedWholeNamingIt() throws IOException {
        String key = api.newTenant();
        List<Object> conversations = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            conversations.add(hiddenBulk("c-" + i, 300));
        }
        byte[] zip = zipped(export(conversations.toArray()));
        assertThat(zip.length).as("the zip's own size").isLessThan(100_000);

        Api.Response refused = importZip(key, "big", zip);

        assertProblem(refused, 400, "invalid-export");
        assertThat(refused.text("detail"))
                .contains("memoir.imports.max-export-size")
                .contains("1MB");
        assertThat(items(api.get(key, "/sessions?userId=big"))).isEmpty();
    }

    @Test
    void aConversationLargerThanTheLimitRefusesTheExportNamingItAndItsPlace() throws IOException {
        String key = api.newTenant();

        Api.Response refused =
                importZip(key, "long", zipped(export(hiddenBulk("c-small", 50), hiddenBulk("c-big", 600))));

        assertProblem(refused, 400, "invalid-export");
        assertThat(refused.text("detail"))
                .contains("conversation [1]")
                .contains("memoir.imports.max-conversation-size");
        assertThat(items(api.get(key, "/sessions?userId=long"))).isEmpty();
    }

    @Test
    void moreConversationsThanTheLimitRefuseTheExportNamingIt() throws IOException {
        String key = api.newTenant();
        List<Object> conversations = new ArrayList<>();
        for (int i = 0; i < 21; i++) {
            conversations.add(new ChatGptConversation("c-" + i, "Hi", T0)
                    .text("u", "user", "Hello " + i, T0.plusSeconds(1))
                    .json());
        }

        Api.Response refused = importZip(key, "many", zipped(export(conversations.toArray())));

        assertProblem(refused, 400, "invalid-export");
        assertThat(refused.text("detail"))
                .contains("memoir.imports.max-conversations")
                .contains("20");
        assertThat(items(api.get(key, "/sessions?userId=many"))).isEmpty();
    }

    private static List<Object> items(Api.Response response) {
        List<Object> items = new ArrayList<>();
        response.body().path("items").forEach(items::add);
        return items;
    }
}
