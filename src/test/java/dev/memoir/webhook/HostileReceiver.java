package dev.memoir.webhook;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A webhook receiver on 127.0.0.1 that misbehaves as a hostile tenant's would, over a raw socket: it takes each
 * request whole, then answers as its {@link Behaviour} says and holds the connection until released (or a minute has
 * passed).
 */
final class HostileReceiver implements AutoCloseable {

    enum Behaviour {
        /** {@code 200}, {@code Content-Length: 1000}, three bytes of the body, then nothing. */
        STALLS_ITS_BODY,
        /** Takes the request and never answers. */
        NEVER_ANSWERS,
        /** {@code 200} with a body of 2 GiB, written as fast as the connection takes it. */
        ANSWERS_2_GIB
    }

    private final ServerSocket server;
    private final Behaviour behaviour;
    private final CountDownLatch released = new CountDownLatch(1);
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicLong bodyBytesWritten = new AtomicLong();

    HostileReceiver(Behaviour behaviour) throws IOException {
        this.behaviour = behaviour;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(this::accept);
    }

    String url() {
        return "http://127.0.0.1:" + server.getLocalPort() + "/hook";
    }

    /** Requests taken whole so far. */
    int requests() {
        return requests.get();
    }

    /** Bytes of answer bodies the connections took before they were dropped. */
    long bodyBytesWritten() {
        return bodyBytesWritten.get();
    }

    /** Lets every held connection go. */
    void release() {
        released.countDown();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                Thread.ofVirtual().start(() -> serve(socket));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            readRequest(socket.getInputStream());
            requests.incrementAndGet();
            OutputStream out = socket.getOutputStream();
            switch (behaviour) {
                case STALLS_ITS_BODY -> {
                    out.write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nabc".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                }
                case NEVER_ANSWERS -> {
                    // Nothing at all.
                }
                case ANSWERS_2_GIB -> {
                    out.write("HTTP/1.1 200 OK\r\nContent-Length: 2147483648\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                    byte[] zeros = new byte[64 * 1024];
                    for (long sent = 0; sent < (2L << 30); sent += zeros.length) {
                        out.write(zeros);
                        bodyBytesWritten.addAndGet(zeros.length);
                    }
                }
            }
            released.await(60, TimeUnit.SECONDS);
        } catch (IOException e) {
            // The client dropped the connection: what a bounded client does.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Reads the request line, headers and a body of the length they give. */
    private static void readRequest(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("request cut short");
            }
            head.append((char) b);
        }
        long length = 0;
        for (String line : head.toString().split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Long.parseLong(
                        line.substring("content-length:".length()).strip());
            }
        }
        in.readNBytes((int) length);
    }

    @Override
    public void close() throws IOException {
        release();
        server.close();
    }
}
