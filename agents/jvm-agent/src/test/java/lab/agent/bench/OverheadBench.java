package lab.agent.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the agent costs a real service: WireMock standalone serving a 200 KB JSON file, started alternately without
 * and with the agent (scraped every second, as Prometheus would), each round a warm-up then a fixed number of
 * requests from two client threads. Prints, per round and as medians, requests a second, the service's CPU
 * milliseconds per request (/proc/<pid>/stat, the same clock for both) and the time from start to first answer, and the
 * ratios with/without; the raw figures go to a JSON file. A benchmark, not a test: `make bench` runs it.
 * Usage: OverheadBench AGENT_JAR WIREMOCK_JAR RESULTS_DIR [ROUNDS]
 */
public final class OverheadBench {
    private static final int WARMUP = 5000;
    private static final int MEASURED = 8000;
    private static final int CLIENTS = 2;

    /** agentCpuShare: the CPU of the agent's and JFR's threads over the whole process's, in the measured window. */
    record Run(boolean agent, double requestsPerSecond, double cpuMsPerRequest, double startMs, long rssKb, double agentCpuShare) {
    }

    public static void main(String[] args) throws Exception {
        Path agentJar = Path.of(args[0]).toAbsolutePath();
        Path wiremockJar = Path.of(args[1]).toAbsolutePath();
        Path results = Path.of(args[2]);
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        Path root = Files.createTempDirectory("lab-agent-bench-");
        try {
            Files.createDirectories(root.resolve("__files"));
            Files.createDirectories(root.resolve("mappings"));
            StringBuilder doc = new StringBuilder("[");
            for (int i = 0; doc.length() < 200_000; i++) doc.append(i == 0 ? "" : ",").append("{\"id\":").append(i).append(",\"name\":\"item ").append(i).append("\",\"tags\":[\"a\",\"b\"]}");
            Files.writeString(root.resolve("__files/doc.json"), doc.append(']'));
            Files.writeString(root.resolve("mappings/doc.json"), "{\"request\":{\"method\":\"GET\",\"url\":\"/doc\"},\"response\":{\"status\":200,\"bodyFileName\":\"doc.json\"}}");
            List<Run> runs = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                // Alternate which goes first, so neither always meets a warmer machine.
                for (boolean agent : round % 2 == 0 ? new boolean[] {false, true} : new boolean[] {true, false}) {
                    Run run = run(agent, agentJar, wiremockJar, root);
                    runs.add(run);
                    System.out.printf(Locale.ROOT, "round %d %-8s %8.0f req/s %7.3f CPU ms/req  start %6.0f ms  RSS %d MB  agent+JFR threads %.2f %% of its CPU%n",
                        round + 1, agent ? "agent" : "no agent", run.requestsPerSecond, run.cpuMsPerRequest, run.startMs, run.rssKb / 1024, run.agentCpuShare * 100);
                }
            }
            // Each round's two runs side by side (a machine shared with other work drifts between rounds), then the
            // median of those ratios and differences.
            List<double[]> pairs = new ArrayList<>();
            for (int i = 0; i + 1 < runs.size(); i += 2) {
                Run with = runs.get(i).agent ? runs.get(i) : runs.get(i + 1);
                Run without = runs.get(i).agent ? runs.get(i + 1) : runs.get(i);
                pairs.add(new double[] {with.requestsPerSecond / without.requestsPerSecond, with.cpuMsPerRequest / without.cpuMsPerRequest,
                    with.startMs - without.startMs, (with.rssKb - without.rssKb) / 1024.0, with.agentCpuShare});
            }
            System.out.printf(Locale.ROOT, "medians of %d rounds: throughput with/without %.3f, CPU per request with/without %.3f, start %+.0f ms, RSS %+.0f MB, agent+JFR threads %.2f %% of the process's CPU (%d cores)%n",
                pairs.size(), median(pairs, 0), median(pairs, 1), median(pairs, 2), median(pairs, 3), median(pairs, 4) * 100, Runtime.getRuntime().availableProcessors());
            Files.createDirectories(results);
            StringBuilder json = new StringBuilder("{\"bench\":\"jvm-agent-overhead\",\"at\":\"" + Instant.now() + "\",\"java\":\"" + System.getProperty("java.version")
                + "\",\"cpus\":" + Runtime.getRuntime().availableProcessors() + ",\"warmup\":" + WARMUP + ",\"measured\":" + MEASURED + ",\"clients\":" + CLIENTS + ",\"runs\":[");
            for (int i = 0; i < runs.size(); i++) {
                Run r = runs.get(i);
                json.append(i == 0 ? "" : ",").append(String.format(Locale.ROOT, "{\"agent\":%b,\"requestsPerSecond\":%.1f,\"cpuMsPerRequest\":%.4f,\"startMs\":%.0f,\"rssKb\":%d,\"agentCpuShare\":%.5f}",
                    r.agent, r.requestsPerSecond, r.cpuMsPerRequest, r.startMs, r.rssKb, r.agentCpuShare));
            }
            Path file = results.resolve("jvm-agent-overhead-" + Instant.now().toString().replace(':', '-') + ".json");
            Files.writeString(file, json.append("]}\n"));
            System.out.println("raw results: " + file);
        } finally {
            try (var files = Files.walk(root)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static Run run(boolean agent, Path agentJar, Path wiremockJar, Path root) throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Path portFile = root.resolve("agent-port");
        Files.deleteIfExists(portFile);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xms256m", "-Xmx256m"));
        if (agent) command.add("-javaagent:" + agentJar);
        command.addAll(List.of("-jar", wiremockJar.toString(), "--port", Integer.toString(port), "--bind-address", "127.0.0.1",
            "--root-dir", root.toString(), "--no-request-journal", "--disable-banner"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("LAB_AGENT_PORT", "0");
        builder.environment().put("LAB_AGENT_PORT_FILE", portFile.toString());
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        URI doc = URI.create("http://127.0.0.1:" + port + "/doc");
        long started = System.nanoTime();
        Process process = builder.start();
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS + 1);
        try {
            while (true) {
                try {
                    if (client.send(HttpRequest.newBuilder(doc).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200) break;
                } catch (IOException e) {
                    if (!process.isAlive()) throw new IllegalStateException("WireMock ended");
                    Thread.sleep(10);
                }
            }
            double startMs = (System.nanoTime() - started) / 1e6;
            // Scraped every second while it runs, as Prometheus would.
            Future<?> scraper = !agent ? null : pool.submit(() -> {
                while (!Files.exists(portFile)) Thread.sleep(10);
                URI metrics = URI.create("http://127.0.0.1:" + Files.readString(portFile) + "/metrics");
                while (!Thread.currentThread().isInterrupted()) {
                    client.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.discarding());
                    Thread.sleep(1000);
                }
                return null;
            });
            load(client, doc, pool, WARMUP);
            long cpuBefore = cpuTicks(process.pid());
            long agentBefore = agentTicks(process.pid());
            long before = System.nanoTime();
            load(client, doc, pool, MEASURED);
            double seconds = (System.nanoTime() - before) / 1e9;
            long cpuTicks = cpuTicks(process.pid()) - cpuBefore;
            long agentTicks = agentTicks(process.pid()) - agentBefore;
            long rss = rssKb(process.pid());
            if (scraper != null) scraper.cancel(true);
            return new Run(agent, MEASURED / seconds, cpuTicks * 10.0 / MEASURED, startMs, rss, cpuTicks == 0 ? 0 : (double) agentTicks / cpuTicks);
        } finally {
            pool.shutdownNow();
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) process.destroyForcibly().waitFor();
        }
    }

    private static void load(HttpClient client, URI doc, ExecutorService pool, int count) throws Exception {
        AtomicInteger left = new AtomicInteger(count);
        List<Future<?>> clients = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            clients.add(pool.submit(() -> {
                while (left.getAndDecrement() > 0) {
                    HttpResponse<InputStream> answer = client.send(HttpRequest.newBuilder(doc).build(), HttpResponse.BodyHandlers.ofInputStream());
                    try (InputStream body = answer.body()) {
                        body.transferTo(OutputStream.nullOutputStream());
                    }
                    if (answer.statusCode() != 200) throw new IllegalStateException("status " + answer.statusCode());
                }
                return null;
            }));
        }
        for (Future<?> c : clients) c.get();
    }

    /** utime + stime of a process, in clock ticks (100 a second on Linux). */
    private static long cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /**
     * CPU ticks of the threads that are there for the agent: its own (lab-agent-*) and JFR's (the recorder thread,
     * its periodic tasks, the stream's), by the names Linux keeps for them (15 characters). A thread that ended in
     * between is not counted; the agent's live as long as the JVM.
     */
    private static long agentTicks(long pid) throws IOException {
        long ticks = 0;
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException e) {
                    continue; // the thread ended
                }
                String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                if (!comm.startsWith("lab-agent") && !comm.startsWith("JFR")) continue;
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            }
        }
        return ticks;
    }

    private static long rssKb(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
        return -1;
    }

    private static double median(List<double[]> pairs, int field) {
        List<Double> values = new ArrayList<>();
        for (double[] p : pairs) values.add(p[field]);
        values.sort(null);
        int n = values.size();
        return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
    }
}
