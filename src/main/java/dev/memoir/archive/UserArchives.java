package dev.memoir.archive;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import org.springframework.stereotype.Component;

import dev.memoir.archive.api.ExportReport;
import dev.memoir.archive.api.ExportSource;
import dev.memoir.archive.api.ImportedUser;
import dev.memoir.archive.dataexport.ExportImporter;
import dev.memoir.archive.user.UserExporter;
import dev.memoir.archive.user.UserImporter;
import dev.memoir.common.web.InvalidRequestException;
import dev.memoir.memory.MemoryStrategy;
import dev.memoir.tenant.TenantId;

/**
 * User archives as text, for clients that cannot stream (the MCP tools): the same archive as
 * {@code GET /users/{userId}/export}, refused beyond a size that such a client can hold.
 */
@Component
public class UserArchives {

    private final UserExporter exporter;
    private final UserImporter importer;
    private final ExportImporter exports;

    UserArchives(UserExporter exporter, UserImporter importer, ExportImporter exports) {
        this.exporter = exporter;
        this.importer = importer;
        this.exports = exports;
    }

    /**
     * Imports the {@code conversations.json} of a ChatGPT or Claude export as the user's sessions, as
     * {@code POST /users/{userId}/import/chatgpt|claude} does; the strategy may be null (the default preset).
     */
    public ExportReport importExport(
            TenantId tenant, String userId, ExportSource source, MemoryStrategy strategy, String conversations) {
        return exports.importExport(
                tenant,
                userId,
                source,
                strategy,
                new ByteArrayInputStream(conversations.getBytes(StandardCharsets.UTF_8)));
    }

    /** The user's archive; 400 naming userId when it would be larger than {@code maxBytes}. */
    public String export(TenantId tenant, String userId, int maxBytes) {
        exporter.requireUser(tenant, userId);
        ByteArrayOutputStream archive = new ByteArrayOutputStream();
        exporter.export(tenant, userId, new OutputStream() {
            @Override
            public void write(int b) {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) {
                if (archive.size() + length > maxBytes) {
                    throw new InvalidRequestException(
                            "userId",
                            "the user's archive is larger than " + maxBytes
                                    + " bytes: export it with GET /users/{userId}/export, which streams");
                }
                archive.write(bytes, offset, length);
            }
        });
        return archive.toString(StandardCharsets.UTF_8);
    }

    public ImportedUser restore(TenantId tenant, String userId, String archive) {
        UserImporter.Imported imported =
                importer.restore(tenant, userId, new ByteArrayInputStream(archive.getBytes(StandardCharsets.UTF_8)));
        return new ImportedUser(imported.userId(), imported.counts(), imported.reembedded());
    }
}
