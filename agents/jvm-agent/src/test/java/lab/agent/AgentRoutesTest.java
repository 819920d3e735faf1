package lab.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * The side port of a JVM that knows nothing of the agent (fixture/BusyApp), over real HTTP: every route, the metric
 * text as Prometheus reads it, GC pauses counted, the profile route's refusals and a profile naming the app's busy
 * method, and other sites' pages kept out.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AgentRoutesTest {
    private static final String TOKEN = "agent-routes-test";
    // OpenTelemetry's names for three gauges end in _count, which promtool's linter flags (it expects a histogram's
    // _count); the conventions name them so, and Prometheus reads them all the same.
    private static final List<String> OTEL_COUNT_NAMES = List.of("jvm_thread_count", "jvm_cpu_count", "jvm_class_count");

    private AgentJvm app;
    private int port;

    @BeforeAll
    void start() throws Exception {
        app = AgentJvm.busyApp(Map.of("LAB_PROFILE_TOKEN", TOKEN, "LAB_AGENT_HOST_NAMES", "lab-app.internal,Other-Name"));
        port = app.port();
        assertEquals("ready", app.readLine());
    }

    @AfterAll
    void stop() throws Exception {
        app.close();
    }

    private RawHttp.Response profile(String query, String... headers) {
        List<String> all = new ArrayList<>(List.of("Authorization", "Bearer " + TOKEN));
        all.addAll(List.of(headers));
        return RawHttp.post(port, "/profile" + query, all.toArray(new String[0]));
    }

    @Test
    void saysWhereItListensInOneLine() {
        assertEquals(List.of("lab agent: metrics on http://127.0.0.1:" + port + "/metrics (pid " + app.javaPid() + ")"), app.agentLines());
    }

    @Test
    void metricsPassPromtoolWithBothFamilies() throws Exception {
        RawHttp.Response answer = RawHttp.get(port, "/metrics");
        assertEquals(200, answer.status);
        assertTrue(answer.headers.get("content-type").startsWith("text/plain; version=0.0.4"), answer.headers.toString());
        Process promtool = new ProcessBuilder("promtool", "check", "metrics").redirectErrorStream(true).start();
        try (OutputStream in = promtool.getOutputStream()) {
            in.write(answer.body.getBytes(StandardCharsets.UTF_8));
        }
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        promtool.getInputStream().transferTo(said);
        int status = promtool.waitFor();
        String problems = said.toString(StandardCharsets.UTF_8);
        // 0: clean; 3: lint problems, each of which must be one of the convention's _count gauges. 1 (a parse error) fails.
        assertTrue(status == 0 || status == 3, "promtool " + status + ": " + problems);
        for (String line : problems.split("\n")) {
            if (line.isBlank()) continue;
            assertTrue(OTEL_COUNT_NAMES.stream().anyMatch(name -> line.startsWith(name + " ")), "promtool: " + line);
        }
        Exposed metrics = new Exposed(answer.body);
        for (String name : List.of(MetricNames.PROCESS_CPU, MetricNames.PROCESS_RSS, MetricNames.PROCESS_START, MetricNames.THREADS_LIVE,
                MetricNames.HEAP_USED, MetricNames.HEAP_COMMITTED, MetricNames.OTEL_CPU_TIME, MetricNames.OTEL_CPU_COUNT, MetricNames.OTEL_CLASS_COUNT)) {
            assertTrue(metrics.sum(name) > 0, name + " in " + answer.body);
        }
        assertEquals(1, metrics.sum(MetricNames.AGENT_INFO, "agent=\"jvm\""));
        assertTrue(metrics.sum(MetricNames.OTEL_MEMORY_USED, "jvm_memory_type=\"heap\"") > 0);
        assertTrue(metrics.sum(MetricNames.OTEL_MEMORY_COMMITTED, "jvm_memory_type=\"non_heap\"") > 0);
        assertTrue(metrics.sum(MetricNames.OTEL_THREAD_COUNT, "jvm_thread_daemon=\"true\"") >= 1);
        // The busy thread's CPU, under its pool name.
        assertTrue(metrics.sum(MetricNames.THREAD_CPU, "pool=\"busy-worker\"") > 0, answer.body);
        assertTrue(answer.body.contains("# TYPE " + MetricNames.SAFEPOINT + " histogram"));
    }

    @Test
    void gcPausesAreCountedAfterSystemGc() throws Exception {
        app.command("gc");
        String line;
        while (!"gc done".equals(line = app.readLine())) assertTrue(line != null, "the app ended");
        // The collector's notification comes on its own thread after System.gc() returns: read until it is counted.
        long until = System.currentTimeMillis() + AgentJvm.DEADLINE_MS;
        Exposed metrics;
        do {
            metrics = new Exposed(RawHttp.get(port, "/metrics").body);
        } while (metrics.sum(MetricNames.GC_PAUSE + "_count", "kind=\"major\"") < 1 && System.currentTimeMillis() < until);
        assertTrue(metrics.sum(MetricNames.GC_PAUSE + "_count", "kind=\"major\"") >= 1, metrics.text);
        assertTrue(metrics.sum(MetricNames.OTEL_GC_DURATION + "_count", "jvm_gc_action=\"end of major GC\"") >= 1, metrics.text);
        assertEquals(metrics.sum(MetricNames.GC_PAUSE + "_count"), metrics.sum(MetricNames.OTEL_GC_DURATION + "_count"), "one notification, counted in both families");
    }

    @Test
    void healthzAndInfo() {
        RawHttp.Response health = RawHttp.get(port, "/healthz");
        assertEquals(200, health.status);
        assertEquals("ok", health.json().get("status").asString());
        JsonNode info = RawHttp.get(port, "/info").json();
        assertEquals("jvm", info.get("agent").asString());
        assertEquals(Agent.version(), info.get("agentVersion").asString());
        assertEquals("java", info.get("runtime").get("name").asString());
        assertFalse(info.get("runtime").get("version").asString().isEmpty());
        assertFalse(info.get("runtime").get("vendor").asString().isEmpty());
        assertFalse(info.get("runtime").get("vm").asString().isEmpty());
        assertEquals(app.javaPid(), info.get("pid").asLong());
        assertTrue(info.get("command").asString().contains("lab.agent.fixture.BusyApp"), info.toString());
        assertTrue(info.get("startedAt").asString().matches("\\d{4}-\\d\\d-\\d\\dT.*Z"), info.toString());
        assertTrue(info.get("profile").asBoolean());
        assertEquals("env", info.get("profileToken").asString());
        List<String> names = new ArrayList<>();
        info.get("metrics").forEach(n -> names.add(n.asString()));
        assertTrue(names.containsAll(List.of(MetricNames.GC_PAUSE, MetricNames.OTEL_GC_DURATION, MetricNames.PROCESS_CPU)), names.toString());
    }

    @Test
    void unknownPathsAndMethods() {
        RawHttp.Response unknown = RawHttp.get(port, "/nothing");
        assertEquals(404, unknown.status);
        List<String> routes = new ArrayList<>();
        unknown.json().get("routes").forEach(r -> routes.add(r.asString()));
        assertEquals(List.of("GET /metrics", "GET /healthz", "GET /info", "POST /profile"), routes);
        RawHttp.Response wrong = RawHttp.post(port, "/metrics");
        assertEquals(405, wrong.status);
        assertEquals("GET", wrong.headers.get("allow"));
        assertEquals("GET", wrong.json().get("allowed").get(0).asString());
        assertEquals(405, RawHttp.get(port, "/profile").status);
        assertEquals(405, RawHttp.send(port, "DELETE", "/info").status);
    }

    @Test
    void otherSitesPagesAreKeptOut() {
        String own = "127.0.0.1:" + port;
        // Any Host reaches the open routes.
        assertEquals(200, RawHttp.get(port, "/metrics", "Host", "rebound.example").status);
        assertEquals(200, RawHttp.get(port, "/healthz", "Host", "rebound.example:" + port).status);
        // The others answer only to the server's names.
        RawHttp.Response rebound = RawHttp.get(port, "/info", "Host", "rebound.example");
        assertEquals(403, rebound.status);
        assertTrue(rebound.json().get("allowed").toString().contains("lab-app.internal"), rebound.body);
        assertEquals(403, profile("?seconds=0", "Host", "rebound.example").status);
        for (String host : List.of("localhost:" + port, "app.localhost", "[::1]:" + port, "LAB-APP.internal", "other-name:1", "10.0.0.7")) {
            assertEquals(200, RawHttp.get(port, "/info", "Host", host).status, host);
        }
        // A read from another site's page, unless the user navigated.
        assertEquals(403, RawHttp.get(port, "/info", "Sec-Fetch-Site", "cross-site").status);
        assertEquals(403, RawHttp.get(port, "/info", "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "navigate", "Sec-Fetch-Dest", "iframe").status);
        assertEquals(200, RawHttp.get(port, "/info", "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "navigate").status);
        assertEquals(200, RawHttp.get(port, "/info", "Sec-Fetch-Site", "same-site").status);
        assertEquals(200, RawHttp.get(port, "/metrics", "Sec-Fetch-Site", "cross-site").status);
        // A POST must come from the server's own origin: a bad parameter's 400 shows it got through.
        assertEquals(403, profile("?seconds=0", "Origin", "http://evil.example").status);
        assertEquals(403, profile("?seconds=0", "Sec-Fetch-Site", "same-site").status);
        assertEquals(403, profile("?seconds=0", "Sec-Fetch-Site", "cross-site").status);
        assertEquals(400, profile("?seconds=0", "Origin", "http://" + own, "Sec-Fetch-Site", "same-origin").status);
        assertEquals(400, profile("?seconds=0", "Sec-Fetch-Site", "none").status);
    }

    @Test
    void profileRefusals() {
        for (String authorization : new String[] {null, "Bearer wrong", TOKEN, "bearer " + TOKEN}) {
            RawHttp.Response refused = authorization == null ? RawHttp.post(port, "/profile?seconds=1")
                : RawHttp.post(port, "/profile?seconds=1", "Authorization", authorization);
            assertEquals(401, refused.status, String.valueOf(authorization));
            assertEquals("Bearer", refused.headers.get("www-authenticate"));
        }
        RawHttp.Response short_ = profile("?intervalUs=500");
        assertEquals(400, short_.status);
        assertEquals("intervalUs", short_.json().get("parameter").asString());
        assertEquals(1000, short_.json().get("allowed").get("min").asInt());
        assertEquals(100000, short_.json().get("allowed").get("max").asInt());
        RawHttp.Response unknown = profile("?minutes=1");
        assertEquals(400, unknown.status);
        assertEquals("[\"seconds\",\"intervalUs\"]", unknown.json().get("allowed").toString());
        assertEquals(400, profile("?seconds=0").status);
        assertEquals(400, profile("?seconds=301").status);
        assertEquals(400, profile("?seconds=1.5").status);
        assertEquals(400, profile("?seconds=99999999999999999999").status);
        RawHttp.Response twice = profile("?seconds=1&seconds=2");
        assertEquals(400, twice.status);
        assertEquals(10, twice.json().get("allowed").get("default").asInt());
        assertEquals(400, profile("?seconds=%zz").status);
    }

    @Test
    void aProfileNamesTheBusyMethodAndOnlyOneRunsAtATime() throws Exception {
        // The first asks for 3 seconds; the others, one second each, follow until it answers. Whichever comes second
        // while another records gets 409, so a 409 is certain however slow the machine, and nothing else may answer.
        CompletableFuture<RawHttp.Response> first = CompletableFuture.supplyAsync(() -> profile("?seconds=3&intervalUs=1000"));
        List<RawHttp.Response> answers = new ArrayList<>();
        while (!first.isDone()) answers.add(profile("?seconds=1"));
        answers.add(first.get());
        List<Integer> statuses = new ArrayList<>();
        for (RawHttp.Response a : answers) statuses.add(a.status);
        assertTrue(statuses.contains(409), statuses.toString());
        assertTrue(statuses.stream().allMatch(s -> s == 200 || s == 409), answers.toString());
        RawHttp.Response busy = answers.stream().filter(a -> a.status == 409).findFirst().orElseThrow();
        assertEquals("[]", busy.json().get("allowed").toString());

        RawHttp.Response ok = answers.stream().filter(a -> a.status == 200).findFirst().orElseThrow();
        JsonNode body = ok.json();
        for (String field : List.of("thread", "startedAtMs", "endedAtMs", "intervalUs", "profile", "safepoints", "gcPauses", "jfr")) {
            assertTrue(body.has(field), field + " missing: " + ok);
        }
        assertTrue(body.get("endedAtMs").asLong() >= body.get("startedAtMs").asLong());
        for (String pauses : List.of("safepoints", "gcPauses")) {
            for (String key : List.of("count", "totalMs", "maxMs")) assertTrue(body.get(pauses).has(key), pauses + "." + key);
        }
        JsonNode profile = body.get("profile");
        assertEquals(profile.get("samples").size(), profile.get("timeDeltas").size());
        assertTrue(profile.get("samples").size() > 0, "no sample");
        assertEquals(body.get("intervalUs").asInt(), profile.get("sampleIntervalUs").asInt());
        List<String> names = new ArrayList<>();
        profile.get("nodes").forEach(n -> names.add(n.get("callFrame").get("functionName").asString()));
        assertEquals("(root)", names.get(0));
        assertTrue(names.contains("thread busy-worker"), names.toString());
        assertTrue(names.contains("BusyApp.busyLoop"), names.toString());
        byte[] jfr = Base64.getDecoder().decode(body.get("jfr").asString());
        assertEquals("FLR", new String(jfr, 0, 3, StandardCharsets.US_ASCII));
    }
}
