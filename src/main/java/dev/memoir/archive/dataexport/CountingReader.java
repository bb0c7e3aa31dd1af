package dev.memoir.archive.dataexport;

import java.io.FilterReader;
import java.io.IOException;
import java.io.Reader;
import java.util.function.Supplier;

/**
 * Counts the characters read through it, and refuses to go on past the limits of the conversation being read and
 * of its element being read (a field, a ChatGPT node, a Claude message): what the heap holds of one conversation at
 * once is bounded this way while the parser reads it. The parser reads ahead by its buffer, so each bound holds
 * within a buffer's length.
 */
final class CountingReader extends FilterReader {

    private long read;
    private long conversationEnd = Long.MAX_VALUE;
    private long elementEnd = Long.MAX_VALUE;
    private long elementLimit;
    private Supplier<? extends RuntimeException> conversationRefusal;
    private Supplier<? extends RuntimeException> elementRefusal;

    CountingReader(Reader in) {
        super(in);
    }

    /**
     * A conversation begins: it may take {@code characters} from here, each of its elements {@code elementCharacters};
     * past either, reading throws what the refusal makes.
     */
    void conversationFromHere(
            long characters,
            long elementCharacters,
            Supplier<? extends RuntimeException> conversationRefusal,
            Supplier<? extends RuntimeException> elementRefusal) {
        this.conversationEnd = read + characters;
        this.elementLimit = elementCharacters;
        this.conversationRefusal = conversationRefusal;
        this.elementRefusal = elementRefusal;
    }

    /** An element of the conversation begins. */
    void elementFromHere() {
        elementEnd = read + elementLimit;
    }

    void elementDone() {
        elementEnd = Long.MAX_VALUE;
    }

    void conversationDone() {
        conversationEnd = Long.MAX_VALUE;
        elementEnd = Long.MAX_VALUE;
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
        if (read > conversationEnd) {
            throw conversationRefusal.get();
        }
        if (read > elementEnd) {
            throw elementRefusal.get();
        }
    }
}
