package dev.memoir.archive.dataexport;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

import tools.jackson.core.JacksonException;
import tools.jackson.core.json.JsonWriteFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The conversations an import has something to store of, spooled to a temporary file until {@link ExportImporter}
 * stores them (planning each again then, from what is stored by that time). Written and read as streams, so that no
 * copy of a whole conversation's bytes is held beside it.
 */
final class ExportSpool implements AutoCloseable {

    /** Where a conversation is in the spool, and what orders it among the others. */
    record Slot(int position, Instant firstTurnAt, long offset, long length) {}

    /**
     * A mapper of its own: what an export holds is spooled as it was read, and comes back the same, whatever its text
     * (a lone surrogate, which UTF-8 cannot carry, is written escaped, as every character past ASCII is; the service's
     * checks of text in requests do not apply to reading it back).
     */
    private static final JsonMapper SPOOL_JSON =
            JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

    private final Path file;
    private final FileChannel channel;

    ExportSpool() throws IOException {
        file = Files.createTempFile("memoir-export-", ".json");
        channel = FileChannel.open(
                file, StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.DELETE_ON_CLOSE);
    }

    Slot write(int position, Instant firstTurnAt, ExportedConversation conversation) {
        try {
            long offset = channel.size();
            channel.position(offset);
            long[] written = {0};
            OutputStream out = new FilterOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel))) {
                @Override
                public void write(int b) throws IOException {
                    out.write(b);
                    written[0]++;
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                    written[0] += len;
                }

                @Override
                public void close() throws IOException {
                    // The channel stays open for the next conversation.
                    out.flush();
                }
            };
            SPOOL_JSON.writeValue(out, conversation);
            out.flush();
            return new Slot(position, firstTurnAt, offset, written[0]);
        } catch (IOException | JacksonException e) {
            throw new UncheckedIOException(new IOException("Could not spool an export's conversation", e));
        }
    }

    ExportedConversation read(Slot slot) throws IOException {
        return SPOOL_JSON.readValue(new BufferedInputStream(new Slice(slot)), ExportedConversation.class);
    }

    /** The bytes of one slot, read from the file where they are; its end is the stream's end. */
    private final class Slice extends InputStream {

        private long at;
        private final long end;

        Slice(Slot slot) {
            this.at = slot.offset();
            this.end = slot.offset() + slot.length();
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (at >= end) {
                return -1;
            }
            int n = channel.read(ByteBuffer.wrap(buffer, offset, (int) Math.min(length, end - at)), at);
            if (n < 0) {
                throw new IOException("The export's spool file ends early");
            }
            at += n;
            return n;
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
        Files.deleteIfExists(file);
    }
}
