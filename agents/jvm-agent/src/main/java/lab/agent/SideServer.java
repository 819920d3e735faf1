package lab.agent;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The agent's side port (README.md, "Routes"): GET /metrics and GET /healthz for any Host; GET /info and POST
 * /profile (with LAB_PROFILE_TOKEN, or a token of the agent's own in its [TokenFile]) behind [SameSite]. Checks in
 * CONTRACT.md's order: unknown path 404, wrong method 405, another site's page 403, then the route's own. The JDK's own HTTP server, on daemon threads (its
 * dispatcher and timer inherit the daemon flag of the thread that starts it, the agent's), so it never keeps the JVM
 * alive.
 */
final class SideServer {
    private static final String JSON = "application/json; charset=utf-8";
    // A profile holds one thread for its seconds; the others stay free for scrapes and the 409 of a second profile.
    private static final int THREADS = 3;

    private interface Handler {
        void handle(HttpExchange exchange) throws IOException;
    }

    private static final class Route {
        final String method;
        final boolean open;
        final Handler handler;

        Route(String method, boolean open, Handler handler) {
            this.method = method;
            this.open = open;
            this.handler = handler;
        }
    }

    private final Settings settings;
    private final Metrics metrics;
    private final SameSite sameSite;
    private final Profiler profiler;
    /**
     * "env", "file" (written to tokenFolder once the port is bound) or null (no POST /profile), for /info; volatile:
     * a failed write clears it after the server's threads started.
     */
    private volatile String tokenSource;
    private final Path tokenFolder;
    private final String fileToken;
    private final String version;
    private final Map<String, Route> routes = new LinkedHashMap<>();
    private HttpServer server;

    private SideServer(Settings settings, String version) {
        this.settings = settings;
        this.version = version;
        this.sameSite = new SameSite(settings.hostNames);
        String token = settings.profileToken;
        Path folder = null;
        if (token != null) {
            tokenSource = "env";
        } else {
            try {
                folder = TokenFile.open(settings.tokenFolder, TokenFile.ownUid());
                token = TokenFile.newToken();
                tokenSource = "file";
            } catch (TokenFile.FolderRefused e) {
                System.err.println("lab agent: no POST /profile: " + e.getMessage() + "; set " + TokenFile.TOKEN_DIR
                    + " to a folder of your own, or " + Settings.PROFILE_TOKEN);
            }
        }
        this.tokenFolder = folder;
        this.fileToken = folder == null ? null : token;
        this.profiler = token == null ? null : new Profiler(token);
        this.metrics = new Metrics(version);
        routes.put("/metrics", new Route("GET", true, this::metricsRoute));
        routes.put("/healthz", new Route("GET", true, ex -> send(ex, 200, JSON, Json.write(Map.of("status", "ok")), Map.of())));
        routes.put("/info", new Route("GET", false, ex -> send(ex, 200, JSON, Json.write(info()), Map.of())));
        if (profiler != null) routes.put("/profile", new Route("POST", false, this::profileRoute));
    }

    /**
     * Raises JFR's stack depth (before the metrics' stream starts JFR), binds, writes the port file, says where it
     * listens. Throws when it cannot (a port in use): the caller says so in one line.
     */
    static SideServer start(Settings settings, String version) throws IOException {
        JfrStackDepth.ensure();
        SideServer side = new SideServer(settings, version);
        try {
            side.listen();
        } catch (IOException | RuntimeException e) {
            side.metrics.close();
            throw e;
        }
        return side;
    }

    private void listen() throws IOException {
        InetSocketAddress address;
        try {
            address = new InetSocketAddress(InetAddress.getByName(settings.host), settings.port);
        } catch (java.net.UnknownHostException e) {
            throw new IOException(Settings.HOST + " \"" + settings.host + "\" is not an address of this machine", e);
        }
        try {
            server = HttpServer.create(address, 50);
        } catch (java.net.BindException e) {
            throw new IOException("cannot listen on " + settings.host + ":" + settings.port + " (" + e.getMessage() + "); set "
                + Settings.PORT + " to a free port (0 for any) or " + Settings.HOST + " to an address of this machine", e);
        }
        AtomicInteger count = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS, task -> {
            Thread thread = new Thread(task, "lab-agent-http-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(pool);
        server.createContext("/", this::dispatch);
        server.start();
        int port = server.getAddress().getPort();
        // Before the line and the port file: whoever waits for either finds the token file written too.
        if (tokenFolder != null) {
            try {
                TokenFile.write(tokenFolder, port, fileToken);
            } catch (IOException | RuntimeException e) {
                tokenSource = null;
                System.err.println("lab agent: cannot write the token file in " + tokenFolder + " (" + e
                    + "): no client can be given the token for POST /profile; set " + Settings.PROFILE_TOKEN);
            }
        }
        String host = settings.host.contains(":") ? "[" + settings.host + "]" : settings.host;
        System.err.println("lab agent: metrics on http://" + host + ":" + port + "/metrics (pid " + ProcessHandle.current().pid() + ")");
        // After the line: whoever waits for the file finds the line written too.
        if (settings.portFile != null) writePortFile(settings.portFile, port);
    }

    int port() {
        return server.getAddress().getPort();
    }

    /** Digits only, whole or not at all: written beside it and moved into place, so a reader never sees half. */
    private static void writePortFile(Path file, int port) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path temp = Files.createTempFile(dir, ".lab-agent-port-", ".tmp");
        Files.writeString(temp, Integer.toString(port));
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private void dispatch(HttpExchange exchange) {
        try (exchange) {
            try {
                route(exchange);
            } catch (HttpError e) {
                send(exchange, e.status, JSON, Json.write(e.body), e.headers);
            } catch (Throwable e) {
                System.err.println("lab agent: " + exchange.getRequestMethod() + " " + exchange.getRequestURI().getRawPath() + " failed: " + e);
                send(exchange, 500, JSON, Json.write(Map.of("error", "the agent failed: " + e.getClass().getSimpleName())), Map.of());
            }
        } catch (IOException | RuntimeException e) {
            // the client went away while we answered: nothing left to tell it
        }
    }

    private void route(HttpExchange exchange) throws IOException {
        List<String> hosts = exchange.getRequestHeaders().get("Host");
        if (hosts != null && hosts.size() > 1) throw new HttpError(400, "a request must have one Host header, not " + hosts.size());
        String path = exchange.getRequestURI().getRawPath();
        Route route = routes.get(path);
        if (route == null) {
            List<String> listing = new ArrayList<>();
            routes.forEach((p, r) -> listing.add(r.method + " " + p));
            throw new HttpError(404, "no route " + path).with("routes", listing);
        }
        String method = exchange.getRequestMethod();
        if (!route.method.equals(method)) {
            throw new HttpError(405, method + " is not allowed on " + path).with("allowed", List.of(route.method)).header("Allow", route.method);
        }
        if (!route.open) sameSite.check(method, exchange.getRequestHeaders());
        route.handler.handle(exchange);
    }

    private void metricsRoute(HttpExchange exchange) throws IOException {
        send(exchange, 200, Exposition.CONTENT_TYPE, metrics.write(true).text(), Map.of());
    }

    private void profileRoute(HttpExchange exchange) throws IOException {
        Profiler.Answer answer = profiler.answer(exchange.getRequestHeaders().getFirst("Authorization"), query(exchange.getRequestURI().getRawQuery()));
        send(exchange, answer.status(), JSON, answer.json(), answer.headers());
    }

    private Map<String, Object> info() {
        Map<String, Object> runtime = new LinkedHashMap<>();
        runtime.put("name", "java");
        runtime.put("version", System.getProperty("java.version"));
        runtime.put("vendor", System.getProperty("java.vendor"));
        runtime.put("vm", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("agent", "jvm");
        info.put("agentVersion", version);
        info.put("runtime", runtime);
        info.put("pid", ProcessHandle.current().pid());
        info.put("command", command());
        info.put("startedAt", Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime()).toString());
        info.put("profile", profiler != null);
        // Where the token comes from, never the token nor the file's path: a client finds the file by the port alone.
        info.put("profileToken", tokenSource);
        info.put("metrics", new ArrayList<Object>(metrics.write(false).families()));
        return info;
    }

    /** What the JVM was started to run (its main class or jar and their arguments), as the launcher recorded it. */
    private static String command() {
        String command = System.getProperty("sun.java.command");
        if (command != null && !command.isEmpty()) return command;
        return ProcessHandle.current().info().commandLine().orElse("");
    }

    /** A query string as names to values: split on & and =, + is a space, %-escapes must be UTF-8 (400 otherwise). */
    static Map<String, List<String>> query(String raw) {
        Map<String, List<String>> query = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) return query;
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) continue;
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            query.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
        return query;
    }

    private static String decode(String raw) {
        try {
            String text = URLDecoder.decode(raw, StandardCharsets.UTF_8);
            if (text.indexOf('\uFFFD') >= 0 || text.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) throw new IllegalArgumentException("not UTF-8 text");
            return text;
        } catch (IllegalArgumentException e) {
            throw new HttpError(400, "the query has a malformed %-escape, one that is not UTF-8 or one of a control character");
        }
    }

    private static void send(HttpExchange exchange, int status, String type, String body, Map<String, String> headers) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
        // The request's body, if any, is not ours to read: drain a little so the connection can go on, else close it.
        try (InputStream in = exchange.getRequestBody()) {
            if (in.readNBytes(64 * 1024).length == 64 * 1024) exchange.getResponseHeaders().set("Connection", "close");
        }
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** Stops listening and streaming (the tests' in-process servers; an attached agent lives as long as its JVM). */
    void stop() {
        server.stop(0);
        metrics.close();
    }
}
