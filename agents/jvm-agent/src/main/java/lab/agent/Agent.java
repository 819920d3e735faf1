package lab.agent;

import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The entry points: `-javaagent:lab-agent.jar[=port=0,portFile=/path]` (premain) or an attach (agentmain). Both start
 * the side port on a daemon thread of their own and return at once, and nothing the agent does is let out into the
 * application: a bad setting or a port in use is one stderr line, and the application runs on unwatched.
 */
public final class Agent {
    private static final AtomicBoolean STARTED = new AtomicBoolean(false);

    private Agent() {
    }

    public static void premain(String args, Instrumentation instrumentation) {
        start(args);
    }

    public static void agentmain(String args, Instrumentation instrumentation) {
        start(args);
    }

    private static void start(String args) {
        try {
            if (!STARTED.compareAndSet(false, true)) return; // attached twice: the first one serves
            // Daemon, so that the HTTP server's own threads, which inherit the flag, never keep the JVM alive.
            Thread thread = new Thread(() -> run(args), "lab-agent-start");
            thread.setDaemon(true);
            thread.start();
        } catch (Throwable e) {
            say("not started: " + e);
        }
    }

    private static void run(String args) {
        try {
            SideServer.start(Settings.from(System.getenv(), args), version());
        } catch (Throwable e) {
            say("not started, the application runs unwatched: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
        }
    }

    /** One line on stderr, and never an exception out of it. */
    private static void say(String message) {
        try {
            System.err.println("lab agent: " + message.replace('\n', ' '));
        } catch (Throwable ignored) {
            // nowhere left to say it
        }
    }

    static String version() {
        try (InputStream in = Agent.class.getResourceAsStream("/lab-agent.properties")) {
            Properties properties = new Properties();
            if (in != null) properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (Exception e) {
            return "unknown";
        }
    }
}
