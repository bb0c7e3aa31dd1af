package dev.memoir.archive.dataexport;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.Supplier;

/** Passes a stream on up to a number of bytes; reading past it throws what the limit's refusal says. */
final class BoundedInputStream extends FilterInputStream {

    private final long limit;
    private final Supplier<? extends RuntimeException> refusal;
    private long read;

    BoundedInputStream(InputStream in, long limit, Supplier<? extends RuntimeException> refusal) {
        super(in);
        this.limit = limit;
        this.refusal = refusal;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            count(1);
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, length);
        if (n > 0) {
            count(n);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(n);
        count(skipped);
        return skipped;
    }

    private void count(long n) {
        read += n;
        if (read > limit) {
            throw refusal.get();
        }
    }
}
