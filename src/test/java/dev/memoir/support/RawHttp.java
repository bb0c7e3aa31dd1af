package dev.memoir.support;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket: the request line and headers go out exactly as written, so that no client
 * normalises a path or refuses a header before the server sees it.
 */
public final class RawHttp {

    private final int port;

    public RawHttp(int port) {
        this.port = port;
    }

    public record Response(int status, Map<String, String> headers, String body) {

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    public Response send(String method, String path, Map<String, String> headers, String body) {
        byte[] payload = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder request =
                new StringBuilder().append(method).append(' ').append(path).append(" HTTP/1.1\r\n");
        Map<String, String> all = new LinkedHashMap<>();
        all.put("Host", "127.0.0.1");
        all.putAll(headers);
        all.put("Connection", "close");
        if (body != null) {
            all.putIfAbsent("Content-Type", "application/json");
        }
        all.put("Content-Length", String.valueOf(payload.length));
        all.forEach(
                (name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
        request.append("\r\n");
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.write(payload);
            out.flush();
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int headEnd = response.indexOf("\r\n\r\n");
            String head = headEnd < 0 ? response : response.substring(0, headEnd);
            String[] lines = head.split("\r\n");
            Map<String, String> responseHeaders = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                if (colon > 0) {
                    responseHeaders.put(
                            lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
                            lines[i].substring(colon + 1).strip());
                }
            }
            String responseBody = headEnd < 0 ? "" : response.substring(headEnd + 4);
            if ("chunked".equalsIgnoreCase(responseHeaders.get("transfer-encoding"))) {
                responseBody = unchunk(responseBody);
            }
            return new Response(Integer.parseInt(lines[0].split(" ")[1]), responseHeaders, responseBody);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Response send(String method, String path, String key, String body) {
        return send(method, path, key == null ? Map.of() : Map.of("Authorization", "Bearer " + key), body);
    }

    private static String unchunk(String chunked) {
        StringBuilder body = new StringBuilder();
        int at = 0;
        while (at < chunked.length()) {
            int lineEnd = chunked.indexOf("\r\n", at);
            if (lineEnd < 0) {
                break;
            }
            int size = Integer.parseInt(
                    chunked.substring(at, lineEnd).split(";")[0].strip(), 16);
            if (size == 0) {
                break;
            }
            // Sizes count bytes; the bodies here are ASCII JSON or short UTF-8 text.
            byte[] rest = chunked.substring(lineEnd + 2).getBytes(StandardCharsets.UTF_8);
            String chunk = new String(rest, 0, Math.min(size, rest.length), StandardCharsets.UTF_8);
            body.append(chunk);
            at = lineEnd + 2 + chunk.length() + 2;
        }
        return body.toString();
    }
}
