package dev.memoir.support;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A POST sent as a client on a slow line sends it: the first part at once, the rest only once the gate opens
 * (chunked, over a socket of its own, so that nothing buffers the first part). For tests of what happens while a
 * streamed import is under way.
 */
public final class TwoPartUpload {

    private TwoPartUpload() {}

    /** Sends the request; answers the status line, headers and body as they came. */
    public static String post(
            int port, String path, String key, String contentType, byte[] first, byte[] rest, CountDownLatch gate)
            throws IOException, InterruptedException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                            + "Authorization: Bearer " + key + "\r\nContent-Type: " + contentType + "\r\n"
                            + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            chunk(out, first);
            out.flush();
            if (!gate.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never opened the gate");
            }
            chunk(out, rest);
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static void chunk(OutputStream out, byte[] bytes) throws IOException {
        out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    }
}
