package lab.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The token file of an agent started without LAB_PROFILE_TOKEN (fixture/BusyApp): the user's alone (a 0700 folder, a
 * 0600 file named by the side port), its token the one POST /profile takes, gone when the JVM shuts down; a folder
 * another user could reach is refused in one stderr line and the app runs on without the route; with
 * LAB_PROFILE_TOKEN no file at all. The folder rule against the cases the Node agent's tests read too.
 */
class TokenFileTest {
    private static final Path CASES = Path.of("..", "token-folders.json");
    // Another user's uid for a folder to refuse: nobody's, where the tests may chown (as root).
    private static final int NOBODY = 65534;

    private static List<Path> list(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.toList();
        }
    }

    /** POST /profile?seconds=0: out of range, so a 400 says the token was taken, a 401 that it was not. */
    private static int profileStatus(int port, String token) {
        return RawHttp.post(port, "/profile?seconds=0", "Authorization", "Bearer " + token).status;
    }

    @Test
    void withoutATokenTheAgentWritesOneForTheUserAloneAndRemovesItOnShutdown() throws Exception {
        try (AgentJvm app = AgentJvm.busyApp(Map.of())) {
            int port = app.port();
            assertEquals("ready", app.readLine());
            assertEquals(PosixFilePermissions.fromString("rwx------"), Files.getPosixFilePermissions(app.tokenDir));
            Path file = app.tokenDir.resolve(port + ".token");
            assertEquals(List.of(file), list(app.tokenDir), "the file, and nothing written aside left");
            assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(file));
            String token = Files.readString(file);
            assertTrue(token.matches("[0-9a-f]{64}"), token);
            RawHttp.Response info = RawHttp.get(port, "/info");
            assertTrue(info.json().get("profile").asBoolean());
            assertEquals("file", info.json().get("profileToken").asString());
            assertFalse(info.body.contains(token) || info.body.contains(app.tokenDir.toString()), "neither the token nor its folder in /info");
            assertEquals(400, profileStatus(port, token));
            assertEquals(401, profileStatus(port, token.substring(1) + "0"));
            assertEquals(1, app.agentLines().size(), app.stderrText());
            app.end();
            assertEquals(List.of(), list(app.tokenDir));
        }
    }

    @Test
    void aFolderOthersMayEnterOrOfAnotherUidIsOneLineAndNoProfileRoute(@TempDir Path temp) throws Exception {
        Path open = Files.createDirectory(temp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        // As root the test makes a folder of nobody's; otherwise / is root's (the owner is checked before the mode).
        Path theirs = Path.of("/");
        if (Long.valueOf(0).equals(TokenFile.ownUid())) {
            theirs = Files.createDirectory(temp.resolve("theirs"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Files.setAttribute(theirs, "unix:uid", NOBODY);
        }
        Map<Path, String> cases = new LinkedHashMap<>();
        cases.put(open, " is open to other users (mode 777): chmod 700 it");
        cases.put(theirs, " belongs to uid ");
        for (Map.Entry<Path, String> c : cases.entrySet()) {
            try (AgentJvm app = AgentJvm.busyApp(Map.of("LAB_AGENT_TOKEN_DIR", c.getKey().toString()))) {
                int port = app.port();
                assertEquals("ready", app.readLine());
                List<String> lines = app.agentLines();
                assertEquals(2, lines.size(), "this line and where the metrics are: " + app.stderrText());
                String line = lines.get(0);
                assertTrue(line.startsWith("lab agent: no POST /profile: the token folder " + c.getKey()) && line.contains(c.getValue())
                    && line.endsWith("; set LAB_AGENT_TOKEN_DIR to a folder of your own, or LAB_PROFILE_TOKEN"), line);
                assertEquals(404, RawHttp.post(port, "/profile?seconds=0").status);
                assertFalse(RawHttp.get(port, "/nothing").body.contains("/profile"));
                JsonNode info = RawHttp.get(port, "/info").json();
                assertFalse(info.get("profile").asBoolean());
                assertTrue(info.get("profileToken").isNull(), info.toString());
                app.assertAnswers();
                if (c.getKey().equals(open)) assertEquals(List.of(), list(open));
            }
        }
    }

    @Test
    void withLabProfileTokenNoFileIsWritten() throws Exception {
        try (AgentJvm app = AgentJvm.busyApp(Map.of("LAB_PROFILE_TOKEN", "a-token-for-the-tests"))) {
            int port = app.port();
            assertFalse(Files.exists(app.tokenDir));
            assertEquals("env", RawHttp.get(port, "/info").json().get("profileToken").asString());
        }
    }

    @Test
    void theFolderRuleIsTheNodeAgents() throws Exception {
        JsonNode cases = new ObjectMapper().readTree(Files.readString(CASES)).get("cases");
        assertTrue(cases.size() >= 5, cases.toString());
        for (JsonNode c : cases) {
            Map<String, String> env = new HashMap<>();
            c.get("env").properties().forEach(e -> env.put(e.getKey(), e.getValue().asString()));
            Long uid = c.get("uid").isNull() ? null : c.get("uid").asLong();
            Path folder = TokenFile.folder(env, uid);
            assertEquals(c.get("folder").isNull() ? null : c.get("folder").asString(), folder == null ? null : folder.toString(), c.toString());
        }
        assertEquals(Path.of("tokens").toAbsolutePath(), TokenFile.folder(Map.of("LAB_AGENT_TOKEN_DIR", "tokens"), 1L), "a relative folder is the working directory's");
    }
}
