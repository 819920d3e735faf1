package lab.agent;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A JVM started with the agent on the packaged jar, by the JDK that AGENT_TEST_JAVA_HOME names (default: the one
 * running the tests), its stderr in a file, its port read from LAB_AGENT_PORT_FILE once written, its token file
 * (without LAB_PROFILE_TOKEN) in a LAB_AGENT_TOKEN_DIR of its own, all in a temp folder removed with it. Waits are for
 * events (a file appears, a line is read), never for a time; the deadline is only there so a broken agent fails the
 * test instead of hanging it.
 */
final class AgentJvm implements AutoCloseable {
    static final Path AGENT_JAR = Path.of(System.getProperty("lab.agentJar", "target/lab-agent.jar"));
    static final Path TEST_CLASSES = Path.of(System.getProperty("lab.testClasses", "target/test-classes"));
    static final long DEADLINE_MS = 180_000;

    final Process process;
    final Path dir;
    final Path portFile;
    final Path tokenDir;
    final Path stderr;
    private final PrintWriter stdin;
    private final BufferedReader stdout;

    /** args: what follows `java` (options, -cp, main class), the -javaagent option put in front unless agentOption is null. */
    AgentJvm(String agentOption, Map<String, String> env, List<String> args) throws IOException {
        dir = Files.createTempDirectory("lab-agent-test-");
        portFile = dir.resolve("port");
        tokenDir = dir.resolve("tokens");
        stderr = dir.resolve("stderr.txt");
        List<String> command = new ArrayList<>();
        command.add(java());
        if (agentOption != null) command.add(agentOption);
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(stderr.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("LAB_") || name.equals("JAVA_TOOL_OPTIONS"));
        builder.environment().put("LAB_AGENT_PORT", "0");
        builder.environment().put("LAB_AGENT_PORT_FILE", portFile.toString());
        builder.environment().put("LAB_AGENT_TOKEN_DIR", tokenDir.toString());
        env.forEach((name, value) -> {
            if (value == null) builder.environment().remove(name);
            else builder.environment().put(name, value);
        });
        process = builder.start();
        stdin = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** The BusyApp fixture with the agent. */
    static AgentJvm busyApp(Map<String, String> env, String... appArgs) throws IOException {
        return busyApp("-javaagent:" + AGENT_JAR.toAbsolutePath(), env, appArgs);
    }

    static AgentJvm busyApp(String agentOption, Map<String, String> env, String... appArgs) throws IOException {
        List<String> args = new ArrayList<>(List.of("-Xmx128m", "-cp", TEST_CLASSES.toAbsolutePath().toString(), "lab.agent.fixture.BusyApp"));
        args.addAll(List.of(appArgs));
        return new AgentJvm(agentOption, env, args);
    }

    static String java() {
        String home = System.getenv("AGENT_TEST_JAVA_HOME");
        if (home == null || home.isEmpty()) home = System.getProperty("java.home");
        return Path.of(home, "bin", "java").toString();
    }

    /** The agent's port, once its file is written; fails with the JVM's stderr if the JVM ends first. */
    int port() throws IOException, InterruptedException {
        long until = System.currentTimeMillis() + DEADLINE_MS;
        while (System.currentTimeMillis() < until) {
            if (Files.exists(portFile)) return Integer.parseInt(Files.readString(portFile));
            if (!process.isAlive()) throw new AssertionError("the JVM ended before its agent listened: " + stderrText());
            Thread.sleep(20);
        }
        throw new AssertionError("no port file within the deadline: " + stderrText());
    }

    /**
     * The JVM's pid: the process started, or, where AGENT_TEST_DOCKER_IMAGE runs it in a container (with the host's
     * PIDs), the one java process under it.
     */
    long javaPid() {
        if (System.getenv("AGENT_TEST_DOCKER_IMAGE") == null) return process.pid();
        for (String line : agentLines()) {
            java.util.regex.Matcher pid = java.util.regex.Pattern.compile("\\(pid (\\d+)\\)$").matcher(line);
            if (pid.find()) {
                long found = Long.parseLong(pid.group(1));
                if (ProcessHandle.of(found).map(ProcessHandle::isAlive).orElse(false)) return found;
            }
        }
        throw new AssertionError("no live pid in the agent's lines: " + stderrText());
    }

    /** The next stdout line the app prints (BusyApp: "ready", "pong", "gc done"). */
    String readLine() throws IOException {
        return stdout.readLine();
    }

    void command(String line) {
        stdin.println(line);
    }

    /** Sends `ping`, expects `pong`: the app runs and answers. */
    void assertAnswers() throws IOException {
        command("ping");
        String line;
        while ((line = readLine()) != null) if (line.equals("pong")) return;
        throw new AssertionError("the app ended instead of answering: " + stderrText());
    }

    String stderrText() {
        try {
            return Files.readString(stderr);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The lines of stderr that are the agent's. */
    List<String> agentLines() {
        List<String> lines = new ArrayList<>();
        for (String line : stderrText().split("\n")) if (line.startsWith("lab agent:")) lines.add(line);
        return lines;
    }

    /** Asks the JVM to end (SIGTERM: its shutdown hooks run), forcibly after a minute; the temp folder stays. */
    void end() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) process.destroyForcibly().waitFor();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        end();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
