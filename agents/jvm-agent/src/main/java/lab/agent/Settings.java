package lab.agent;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The agent's settings, read once at start from the environment (the same names as the Node agent's), or from the
 * agent's arguments (`-javaagent:lab-agent.jar=port=0,portFile=/tmp/port`), which win. Every bad value THROWS, naming
 * the setting: the agent then says so in one stderr line and the application runs unwatched. The profile token is
 * read from the environment only: agent arguments show in `ps` and in the JVM's own command line (/info's `command`);
 * so is the token folder (LAB_AGENT_TOKEN_DIR, [TokenFile]), which a client finds by the same rule in its own.
 */
final class Settings {
    static final int DEFAULT_PORT = 9464;
    static final String DEFAULT_HOST = "127.0.0.1";

    static final String PORT = "LAB_AGENT_PORT";
    static final String HOST = "LAB_AGENT_HOST";
    static final String PORT_FILE = "LAB_AGENT_PORT_FILE";
    static final String HOST_NAMES = "LAB_AGENT_HOST_NAMES";
    static final String PROFILE_TOKEN = "LAB_PROFILE_TOKEN";

    /** Agent argument -> the variable it stands for. Host names are separated by ';' there (',' separates arguments). */
    private static final Map<String, String> ARGUMENTS = Map.of("port", PORT, "host", HOST, "portFile", PORT_FILE, "hostNames", HOST_NAMES);

    final int port;
    final String host;
    final Path portFile;
    final List<String> hostNames;
    /** null: no token from the environment (then the agent makes one for a file in tokenFolder). */
    final String profileToken;
    /** Where the token file goes without a profileToken ([TokenFile]); null where the platform has no uid. */
    final Path tokenFolder;

    private Settings(Map<String, String> values, Path tokenFolder) {
        port = port(values.get(PORT));
        host = nonEmpty(values.getOrDefault(HOST, DEFAULT_HOST), HOST, DEFAULT_HOST);
        String file = values.get(PORT_FILE);
        portFile = file == null || file.isEmpty() ? null : Path.of(file);
        hostNames = names(values.get(HOST_NAMES));
        String token = values.get(PROFILE_TOKEN);
        profileToken = token == null || token.isEmpty() ? null : token;
        this.tokenFolder = tokenFolder;
    }

    static Settings from(Map<String, String> env, String agentArgs) {
        Map<String, String> values = new HashMap<>();
        for (String name : List.of(PORT, HOST, PORT_FILE, HOST_NAMES, PROFILE_TOKEN)) {
            if (env.get(name) != null) values.put(name, env.get(name));
        }
        if (agentArgs != null && !agentArgs.isBlank()) {
            for (String argument : agentArgs.split(",")) {
                int eq = argument.indexOf('=');
                String key = eq < 0 ? argument.trim() : argument.substring(0, eq).trim();
                String variable = ARGUMENTS.get(key);
                if (variable == null || eq < 0) {
                    throw new IllegalArgumentException("agent argument \"" + argument + "\" is not one of "
                        + String.join("=..., ", new java.util.TreeSet<>(ARGUMENTS.keySet())) + "=...");
                }
                String value = argument.substring(eq + 1).trim();
                values.put(variable, variable.equals(HOST_NAMES) ? value.replace(';', ',') : value);
            }
        }
        return new Settings(values, TokenFile.folder(env, TokenFile.ownUid()));
    }

    private static int port(String raw) {
        if (raw == null || raw.isEmpty()) return DEFAULT_PORT;
        if (!raw.matches("[0-9]{1,5}") || Integer.parseInt(raw) > 65535) {
            throw new IllegalArgumentException(PORT + " must be a port number from 0 (any free port) to 65535, not \"" + raw + "\"");
        }
        return Integer.parseInt(raw);
    }

    private static String nonEmpty(String raw, String name, String fallback) {
        if (raw.isEmpty()) return fallback;
        if (raw.isBlank()) throw new IllegalArgumentException(name + " must name an address, not \"" + raw + "\"");
        return raw.trim();
    }

    private static List<String> names(String raw) {
        if (raw == null || raw.isBlank()) return List.of();
        List<String> names = new ArrayList<>();
        for (String name : raw.split(",")) {
            String trimmed = name.trim().toLowerCase();
            if (trimmed.isEmpty() || !trimmed.matches("[a-z0-9._-]+")) {
                throw new IllegalArgumentException(HOST_NAMES + " must be host names separated by commas, not \"" + raw + "\"");
            }
            names.add(trimmed);
        }
        return Collections.unmodifiableList(names);
    }
}
