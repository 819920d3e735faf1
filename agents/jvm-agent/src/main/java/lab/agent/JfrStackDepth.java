package lab.agent;

import java.lang.management.ManagementFactory;
import javax.management.ObjectName;

/**
 * JDK Flight Recorder keeps 64 frames of a stack by default and drops the rest from the root up, so a handler deep
 * under a web server's frames loses the frames that say what ran: jvm-serializer's kotlinx decodes under Jetty's
 * handlers lost the approach that ran them ("thread http;AbstractCollectionSerializer.merge;…", no SerdeWorkload in
 * any of the heaviest stacks). [ensure] raises the depth to [FRAMES] through the JVM's own `JFR.configure` diagnostic
 * command, once, before JFR starts: it takes the setting only then. The agent calls it before it starts JFR itself
 * (its safepoint stream), [Profiler] before each recording (a no-op after the first), for a JVM that uses it without
 * the agent. A JVM whose JFR already runs (a user's -XX:StartFlightRecording) keeps its depth; the answer says so.
 */
public final class JfrStackDepth {
    // Deep enough for Jetty's ~30 frames over a decode of a document at the lab's depth cap; JFR walks only as deep as
    // a stack is, so a deeper limit costs nothing on shallow ones. Public: a service profiled by [Profiler] checks it.
    public static final int FRAMES = 512;

    private static String outcome;

    private JfrStackDepth() {
    }

    /** Raises JFR's stack depth once; the diagnostic command's answer (or why it could not), the same on every call. */
    static synchronized String ensure() {
        if (outcome == null) outcome = configure();
        return outcome;
    }

    private static String configure() {
        try {
            Object answer = ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "jfrConfigure",
                new Object[] {new String[] {"stackdepth=" + FRAMES}}, new String[] {String[].class.getName()});
            return String.valueOf(answer).trim();
        } catch (Exception e) {
            return "JFR's stack depth left at its default: " + e.getMessage();
        }
    }
}
