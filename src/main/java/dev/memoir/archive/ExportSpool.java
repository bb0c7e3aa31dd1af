package dev.memoir.archive;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

import dev.memoir.archive.ConversationPlanner.Part;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/** The parts of an import's conversations, spooled to a temporary file until {@link ExportImporter} stores them. */
final class ExportSpool implements AutoCloseable {

    /** Where a part is in the spool, and what orders it among the others. */
    record Slot(int position, Instant firstTurnAt, long offset, int length) {}

    private final Path file;
    private final FileChannel channel;
    private final JsonMapper json;

    ExportSpool(JsonMapper json) throws IOException {
        this.json = json;
        file = Files.createTempFile("memoir-export-", ".json");
        channel = FileChannel.open(
                file, StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.DELETE_ON_CLOSE);
    }

    Slot write(Part part) {
        try {
            byte[] bytes = json.writeValueAsBytes(part);
            long offset = channel.size();
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer, offset + buffer.position());
            }
            return new Slot(part.position(), part.turns().getFirst().occurredAt(), offset, bytes.length);
        } catch (IOException | JacksonException e) {
            throw new UncheckedIOException(new IOException("Could not spool an export's conversation", e));
        }
    }

    Part read(Slot slot) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(slot.length());
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, slot.offset() + buffer.position()) < 0) {
                throw new IOException("The export's spool file ends early");
            }
        }
        return json.readValue(buffer.array(), Part.class);
    }

    @Override
    public void close() throws IOException {
        channel.close();
        Files.deleteIfExists(file);
    }
}
