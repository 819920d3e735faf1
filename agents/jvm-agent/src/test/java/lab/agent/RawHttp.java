package lab.agent;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * HTTP/1.1 over a plain socket, one request per connection: the tests send the Host, Origin and Sec-Fetch-* headers a
 * browser would, which java.net.http refuses to set.
 */
final class RawHttp {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private RawHttp() {
    }

    static final class Response {
        final int status;
        final Map<String, String> headers;
        final String body;

        Response(int status, Map<String, String> headers, String body) {
            this.status = status;
            this.headers = headers;
            this.body = body;
        }

        JsonNode json() {
            return MAPPER.readTree(body);
        }

        @Override
        public String toString() {
            return status + " " + (body.length() > 300 ? body.substring(0, 300) + "..." : body);
        }
    }

    static Response get(int port, String path, String... headers) {
        return send(port, "GET", path, headers);
    }

    static Response post(int port, String path, String... headers) {
        return send(port, "POST", path, headers);
    }

    /** headers: name, value, name, value...; a Host given there replaces 127.0.0.1:port. */
    static Response send(int port, String method, String path, String... headers) {
        StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\n");
        boolean host = false;
        for (int i = 0; i < headers.length; i += 2) {
            head.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
            host |= headers[i].equalsIgnoreCase("Host");
        }
        if (!host) head.append("Host: 127.0.0.1:").append(port).append("\r\n");
        if (!method.equals("GET")) head.append("Content-Length: 0\r\n");
        head.append("Connection: close\r\n\r\n");
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            String text = all.toString(StandardCharsets.UTF_8);
            int end = text.indexOf("\r\n\r\n");
            String[] lines = text.substring(0, end).split("\r\n");
            Map<String, String> answerHeaders = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                answerHeaders.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
            }
            return new Response(Integer.parseInt(lines[0].split(" ")[1]), answerHeaders, text.substring(end + 4));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
