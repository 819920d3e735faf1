package lab.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the agent starts, or does not: settings from its arguments, and a failure that never reaches the app. */
class AgentStartTest {
    @Test
    void agentArgumentsWinOverTheEnvironment(@TempDir Path dir) throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("LAB_AGENT_PORT", "1"); // the arguments win over the environment
        env.put("LAB_AGENT_PORT_FILE", null);
        try (AgentJvm app = AgentJvm.busyApp("-javaagent:" + AgentJvm.AGENT_JAR.toAbsolutePath() + "=port=0,portFile=" + dir.resolve("p"), env)) {
            // The port file named in the arguments, not the environment's.
            assertEquals("ready", app.readLine());
            String line = waitForAgentLine(app);
            int port = Integer.parseInt(line.replaceAll(".*:(\\d+)/metrics.*", "$1"));
            assertEquals(200, RawHttp.get(port, "/healthz").status);
            assertFalse(Files.exists(app.portFile));
        }
    }

    @Test
    void aPortInUseIsOneLineAndTheAppRunsOn() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            try (AgentJvm app = AgentJvm.busyApp(Map.of("LAB_AGENT_PORT", Integer.toString(taken.getLocalPort())))) {
                assertEquals("ready", app.readLine());
                String line = waitForAgentLine(app);
                assertTrue(line.contains("not started") && line.contains(Integer.toString(taken.getLocalPort())), line);
                app.assertAnswers();
                assertEquals(1, app.agentLines().size(), app.stderrText());
                assertTrue(app.process.isAlive());
                assertFalse(Files.exists(app.portFile));
            }
        }
    }

    @Test
    void badSettingsAreOneLineNamingTheSetting() throws Exception {
        Map<String, String> cases = Map.of(
            "LAB_AGENT_PORT", "nine",
            "LAB_AGENT_HOST_NAMES", "ok.example,bad name",
            "LAB_AGENT_HOST", "no-such-host.invalid");
        for (Map.Entry<String, String> bad : cases.entrySet()) {
            try (AgentJvm app = AgentJvm.busyApp(Map.of(bad.getKey(), bad.getValue()))) {
                assertEquals("ready", app.readLine());
                String line = waitForAgentLine(app);
                assertTrue(line.contains(bad.getKey()) && line.contains("not started"), line);
                app.assertAnswers();
                assertEquals(1, app.agentLines().size(), app.stderrText());
            }
        }
        try (AgentJvm app = AgentJvm.busyApp("-javaagent:" + AgentJvm.AGENT_JAR.toAbsolutePath() + "=prot=0", Map.of())) {
            assertEquals("ready", app.readLine());
            assertTrue(waitForAgentLine(app).contains("\"prot=0\""), app.stderrText());
            app.assertAnswers();
        }
    }

    @Test
    void theAgentNeverKeepsTheJvmAlive(@TempDir Path dir) throws Exception {
        // The app waits for the agent's port file (the agent listens), then returns from main.
        AgentJvm app = null;
        try {
            Path portFile = dir.resolve("port");
            Map<String, String> env = Map.of("LAB_AGENT_PORT_FILE", portFile.toString(), "LAB_PROFILE_TOKEN", "x");
            app = AgentJvm.busyApp(env, "exit-when", portFile.toString());
            assertTrue(app.process.waitFor(AgentJvm.DEADLINE_MS, TimeUnit.MILLISECONDS), "the JVM did not end: " + app.stderrText());
            assertEquals(0, app.process.exitValue(), app.stderrText());
            assertEquals(List.of("main returns"), List.of(app.readLine()));
            assertEquals(1, app.agentLines().size(), app.stderrText());
            assertTrue(app.agentLines().get(0).contains("metrics on http://"), app.stderrText());
        } finally {
            if (app != null) app.close();
        }
    }

    /** The agent's first stderr line, once written (it starts on its own thread, after the app's main began). */
    static String waitForAgentLine(AgentJvm app) throws InterruptedException {
        long until = System.currentTimeMillis() + AgentJvm.DEADLINE_MS;
        while (System.currentTimeMillis() < until) {
            List<String> lines = app.agentLines();
            if (!lines.isEmpty()) return lines.get(0);
            Thread.sleep(20);
        }
        throw new AssertionError("the agent said nothing: " + app.stderrText());
    }
}
