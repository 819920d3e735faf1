package lab.jvmserializer.http

import java.lang.management.ManagementFactory
import javax.management.ObjectName

/**
 * JDK Flight Recorder keeps 64 frames of a stack by default and drops the rest from the root up: a kotlinx decode under
 * Jetty's handlers is deeper than that, so its samples lost the frames that say which approach ran (a profile of
 * json-multithreaded's serde read "thread http;AbstractCollectionSerializer.merge;…", no SerdeWorkload in any of its
 * heaviest stacks). [ensure] raises the depth to [FRAMES] through the JVM's own `JFR.configure` diagnostic command, once,
 * before the first recording: JFR takes the setting only before it starts, and this service starts it only here. A JVM
 * whose JFR already runs (a user's -XX:StartFlightRecording) keeps its depth; [ensure] says so rather than fail.
 */
object JfrStackDepth {
    // Deep enough for Jetty's ~30 frames over a decode of a document at the lab's depth cap; JFR walks only as deep as a
    // stack is, so a deeper limit costs nothing on shallow ones.
    const val FRAMES = 512

    @Volatile private var outcome: String? = null

    /** Raises JFR's stack depth once; the diagnostic command's answer (or why it could not), the same on every call. */
    @Synchronized
    fun ensure(): String = outcome ?: configure().also { outcome = it }

    private fun configure(): String = try {
        val answer = ManagementFactory.getPlatformMBeanServer().invoke(
            ObjectName("com.sun.management:type=DiagnosticCommand"),
            "jfrConfigure",
            arrayOf<Any>(arrayOf("stackdepth=$FRAMES")),
            arrayOf(Array<String>::class.java.name),
        )
        answer.toString().trim()
    } catch (e: Exception) {
        "JFR's stack depth left at its default: ${e.message}"
    }
}
