package lab.agent;

import java.lang.management.ManagementFactory;
import javax.management.ObjectName;

/**
 * JDK Flight Recorder keeps 64 frames of a stack by default and drops the rest from the root up, so a handler deep
 * under a web server's frames loses the frames that say what ran (services/jvm-serializer's JfrStackDepth.kt, the
 * same fix). [ensure] raises the depth to [FRAMES] through the JVM's own `JFR.configure` diagnostic command, once,
 * before JFR starts: it takes the setting only then, and the agent starts JFR itself (its safepoint stream) right
 * after. A JVM whose JFR already runs (a user's -XX:StartFlightRecording) keeps its depth; the answer says so.
 */
final class JfrStackDepth {
    // JFR walks only as deep as a stack is, so a deeper limit costs nothing on shallow ones.
    static final int FRAMES = 512;

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
