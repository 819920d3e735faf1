package lab.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A real service nobody here wrote, WireMock standalone (Jetty and Jackson inside), started with the agent: a large
 * JSON body served from a file (a new 8 MB array for every answer: the collector works) and a JSON body matched with
 * equalToJson (Jackson parses every request), a bounded number of requests sent while a profile records. The profile
 * must show WireMock's, Jetty's and Jackson's frames, and the GC metrics must have moved.
 */
class WireMockTest {
    private static final Path WIREMOCK_JAR = Path.of(System.getProperty("lab.wiremockJar", "wiremock-standalone.jar"));
    private static final String TOKEN = "wiremock-test";
    /** At most this many requests, whatever the machine's speed; they stop as soon as the profile answers. */
    private static final int MAX_REQUESTS = 600;
    private static final int BIG_ITEMS = 60_000;
    private static final int MATCH_ITEMS = 2_000;

    // Simple class names, as the .cpuprofile writes frames; wiremock-standalone shades Jetty and Jackson (their
    // packages move, their class names stay).
    private static final Pattern WIREMOCK = Pattern.compile("^(StubRequestHandler|AbstractRequestHandler|WireMockHandlerDispatchingServlet|WireMockApp|StubResponseRenderer|InMemoryStubMappings|EqualToJsonPattern|[A-Za-z]*WireMock[A-Za-z]*)\\..*");
    private static final Pattern JETTY = Pattern.compile("^(QueuedThreadPool|HttpChannel|HttpConnection|ServletHandler|ServletHolder|HttpOutput|ChannelEndPoint|Server|HandlerWrapper|ScopedHandler)[A-Za-z$]*\\..*");
    private static final Pattern JACKSON = Pattern.compile("^(ObjectMapper|ObjectReader|ReaderBasedJsonParser|UTF8StreamJsonParser|JsonNodeDeserializer|BaseNodeDeserializer|JsonNodeFactory|ParserBase|ParserMinimalBase|TextBuffer|ObjectNode|ArrayNode)[A-Za-z$]*\\..*");

    @Test
    void profilesWireMockUnderLoadAndCountsItsCollections(@TempDir Path root) throws Exception {
        Path files = Files.createDirectories(root.resolve("__files"));
        Path mappings = Files.createDirectories(root.resolve("mappings"));
        String big = items(BIG_ITEMS);
        Files.writeString(files.resolve("big.json"), big);
        String match = items(MATCH_ITEMS);
        Files.writeString(mappings.resolve("big.json"), "{\"request\":{\"method\":\"GET\",\"url\":\"/big\"},"
            + "\"response\":{\"status\":200,\"bodyFileName\":\"big.json\",\"headers\":{\"Content-Type\":\"application/json\"}}}");
        Files.writeString(mappings.resolve("match.json"), "{\"request\":{\"method\":\"POST\",\"url\":\"/match\",\"bodyPatterns\":[{\"equalToJson\":"
            + match + "}]},\"response\":{\"status\":200,\"body\":\"matched\"}}");
        assertTrue(big.length() > 5_000_000, "the body file is " + big.length() + " bytes");

        int wiremockPort;
        try (ServerSocket free = new ServerSocket(0)) {
            wiremockPort = free.getLocalPort();
        }
        List<String> args = List.of("-Xmx384m", "-jar", WIREMOCK_JAR.toString(), "--port", Integer.toString(wiremockPort),
            "--bind-address", "127.0.0.1", "--root-dir", root.toString(), "--no-request-journal", "--disable-banner");
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (AgentJvm wiremock = new AgentJvm("-javaagent:" + AgentJvm.AGENT_JAR.toAbsolutePath(), Map.of("LAB_PROFILE_TOKEN", TOKEN), args)) {
            // Drain WireMock's stdout, so it never blocks on a full pipe.
            CompletableFuture.runAsync(() -> drain(wiremock.process.getInputStream()));
            int agentPort = wiremock.port();
            URI base = URI.create("http://127.0.0.1:" + wiremockPort);
            waitForWireMock(client, base, wiremock);
            Exposed before = new Exposed(RawHttp.get(agentPort, "/metrics").body);

            CompletableFuture<RawHttp.Response> profile = CompletableFuture.supplyAsync(() ->
                RawHttp.post(agentPort, "/profile?seconds=5&intervalUs=2000", "Authorization", "Bearer " + TOKEN));
            AtomicInteger sent = new AtomicInteger();
            ExecutorService load = Executors.newFixedThreadPool(2);
            List<Future<?>> workers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                boolean gets = w == 0;
                workers.add(load.submit(() -> {
                    while (!profile.isDone() && sent.incrementAndGet() <= MAX_REQUESTS) {
                        if (gets) {
                            HttpResponse<InputStream> answer = client.send(HttpRequest.newBuilder(base.resolve("/big")).build(), HttpResponse.BodyHandlers.ofInputStream());
                            long length;
                            try (InputStream body = answer.body()) {
                                length = body.transferTo(OutputStream.nullOutputStream());
                            }
                            assertEquals(200, answer.statusCode());
                            assertEquals(big.getBytes(StandardCharsets.UTF_8).length, length);
                        } else {
                            HttpResponse<String> answer = client.send(HttpRequest.newBuilder(base.resolve("/match"))
                                .POST(HttpRequest.BodyPublishers.ofString(match)).build(), HttpResponse.BodyHandlers.ofString());
                            assertEquals("matched", answer.body(), "status " + answer.statusCode());
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) worker.get();
            load.shutdown();
            RawHttp.Response answer = profile.get();
            assertEquals(200, answer.status, answer.toString());

            JsonNode body = answer.json();
            List<String> names = new ArrayList<>();
            body.get("profile").get("nodes").forEach(n -> names.add(n.get("callFrame").get("functionName").asString()));
            assertTrue(body.get("profile").get("samples").size() > 0);
            assertTrue(names.stream().anyMatch(n -> WIREMOCK.matcher(n).matches()), "no WireMock frame in " + sent + " requests: " + sample(names));
            assertTrue(names.stream().anyMatch(n -> JETTY.matcher(n).matches()), "no Jetty frame: " + sample(names));
            assertTrue(names.stream().anyMatch(n -> JACKSON.matcher(n).matches()), "no Jackson frame: " + sample(names));
            assertTrue(names.stream().anyMatch(n -> n.startsWith("thread qtp")), "no Jetty pool thread: " + sample(names));

            Exposed after = new Exposed(RawHttp.get(agentPort, "/metrics").body);
            assertTrue(after.sum(MetricNames.GC_PAUSE + "_count") > before.sum(MetricNames.GC_PAUSE + "_count"), after.text);
            assertTrue(after.sum(MetricNames.OTEL_GC_DURATION + "_count") > before.sum(MetricNames.OTEL_GC_DURATION + "_count"));
            assertTrue(after.sum(MetricNames.PROCESS_CPU) > before.sum(MetricNames.PROCESS_CPU));
            assertTrue(after.sum(MetricNames.THREAD_CPU, "pool=\"qtp#-#\"") > 0, after.lines(MetricNames.THREAD_CPU).toString());
        }
    }

    /** A JSON array of small objects, as large as asked. */
    static String items(int count) {
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < count; i++) {
            if (i > 0) out.append(',');
            out.append("{\"id\":").append(i).append(",\"name\":\"item ").append(i).append("\",\"price\":").append(i * 1.25)
                .append(",\"tags\":[\"alpha\",\"beta\",\"gamma\"],\"ok\":").append(i % 2 == 0)
                .append(",\"text\":\"Lorem ipsum dolor sit amet, consectetur adipiscing elit\"}");
        }
        return out.append(']').toString();
    }

    private static void waitForWireMock(HttpClient client, URI base, AgentJvm wiremock) throws InterruptedException {
        long until = System.currentTimeMillis() + AgentJvm.DEADLINE_MS;
        while (System.currentTimeMillis() < until) {
            try {
                if (client.send(HttpRequest.newBuilder(base.resolve("/__admin/mappings")).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200) return;
            } catch (IOException e) {
                // not listening yet
            }
            if (!wiremock.process.isAlive()) throw new AssertionError("WireMock ended: " + wiremock.stderrText());
            Thread.sleep(50);
        }
        throw new AssertionError("WireMock did not answer: " + wiremock.stderrText());
    }

    private static void drain(InputStream in) {
        try (in) {
            in.transferTo(OutputStream.nullOutputStream());
        } catch (IOException ignored) {
            // the process ended
        }
    }

    private static List<String> sample(List<String> names) {
        return names.subList(0, Math.min(80, names.size()));
    }
}
