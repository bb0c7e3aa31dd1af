package dev.memoir.archive;

import java.io.FilterReader;
import java.io.IOException;
import java.io.Reader;
import java.util.function.Supplier;

/**
 * Counts the characters read through it, and may refuse to go on past a number of them from a point on: one
 * conversation's JSON is bounded this way while the parser reads it. The parser reads ahead by its buffer, so the
 * bound holds within a buffer's length.
 */
final class CountingReader extends FilterReader {

    private long read;
    private long limitAt = Long.MAX_VALUE;
    private Supplier<? extends RuntimeException> refusal;

    CountingReader(Reader in) {
        super(in);
    }

    /** Refuses (throws what {@code refusal} makes) once more than {@code characters} are read from here on. */
    void limitFromHere(long characters, Supplier<? extends RuntimeException> refusal) {
        this.limitAt = read + characters;
        this.refusal = refusal;
    }

    void unlimited() {
        this.limitAt = Long.MAX_VALUE;
        this.refusal = null;
    }

    @Override
    public int read() throws IOException {
        int c = super.read();
        if (c >= 0) {
            count(1);
        }
        return c;
    }

    @Override
    public int read(char[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, length);
        if (n > 0) {
            count(n);
        }
        return n;
    }

    private void count(long n) {
        read += n;
        if (read > limitAt && refusal != null) {
            throw refusal.get();
        }
    }
}
