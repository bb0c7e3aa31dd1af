package dev.memoir.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.ServiceProcess;

/**
 * The heap holds one conversation, not the export (docs/api.md): Memoir in a JVM of its own limited to 256 MB of heap
 * imports a ChatGPT export built to cost the most heap the default limits allow, conversations of up to
 * memoir.imports.max-conversation-size of the smallest nodes JSON can hold and ids past any limit, and stays up.
 * (Issue 40: a 6.65 MB zip of such ids was an OutOfMemoryError and a 500.)
 */
class ExportImportHeapTest {

    /** JSON characters of the largest conversation the default limits read. */
    private static final int CONVERSATION = 16 << 20;

    @Test
    void anExportBuiltToCostTheMostHeapTheLimitsAllowImportsInAHeapOf256Megabytes() throws Exception {
        byte[] zip = export();
        try (ServiceProcess memoir =
                ServiceProcess.start("export_heap_test", List.of("-Xmx256m"), Map.of(), Map.of())) {
            Api api = memoir.api();
            String key = api.newTenant();

            Api.Response report = api.postBytes("/users/heavy/import/chatgpt", key, zip, "application/zip");

            assertThat(report.status()).as(report.raw()).isEqualTo(200);
            assertThat(report.body().path("conversations").asInt()).isEqualTo(8);
            assertThat(report.body().path("refused").asInt()).isEqualTo(8);
            assertThat(memoir.isAlive()).isTrue();
            assertThat(memoir.log()).doesNotContain("OutOfMemoryError");
            assertThat(api.get(key, "/users").status()).isEqualTo(200);
        }
    }

    /**
     * Four conversations each of as many one-word messages as fit in the conversation limit (refused: more turns than
     * a conversation may become), and four whose ids are 190,000 characters long (refused: longer than an id may be).
     */
    private static byte[] export() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            zip.setLevel(Deflater.BEST_SPEED);
            zip.putNextEntry(new ZipEntry("conversations.json"));
            write(zip, "[");
            for (int c = 0; c < 4; c++) {
                write(zip, (c == 0 ? "" : ",") + chain("c-" + c));
                write(
                        zip,
                        ",{\"conversation_id\":\"" + "i".repeat(190_000) + c + "\",\"title\":\"Long id\","
                                + "\"mapping\":{},\"current_node\":\"x\"}");
            }
            write(zip, "]");
            zip.closeEntry();
        }
        return bytes.toByteArray();
    }

    /** A conversation whose mapping is a chain of the smallest nodes, up to just under the conversation limit. */
    private static String chain(String id) {
        StringBuilder json = new StringBuilder(CONVERSATION);
        json.append("{\"conversation_id\":\"").append(id).append("\",\"title\":\"Chain\",\"mapping\":{");
        int node = 0;
        while (json.length() < CONVERSATION - 10_000) {
            json.append(node == 0 ? "" : ",")
                    .append("\"n")
                    .append(node)
                    .append("\":{\"message\":{\"id\":\"n")
                    .append(node)
                    .append("\",\"author\":{\"role\":\"")
                    .append(node % 2 == 0 ? "user" : "assistant")
                    .append("\"},\"content\":{\"parts\":[\"hi\"]}},\"parent\":")
                    .append(node == 0 ? "null" : "\"n" + (node - 1) + "\"")
                    .append('}');
            node++;
        }
        return json.append("},\"current_node\":\"n")
                .append(node - 1)
                .append("\"}")
                .toString();
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
    }
}
