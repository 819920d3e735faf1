package lab.jvmserializer.metrics

import java.lang.management.ManagementFactory
import java.nio.file.Files
import java.nio.file.Path

/**
 * The calling thread's time on a CPU and its time waiting for one: what splits a run's wall time into the part its code
 * ran and the part a busy machine made it wait (issue 59; a Node service splits its event loop's blocks the same way,
 * loop-kit/thread-clock.js). CPU time is ThreadMXBean's (any JVM that supports it; HotSpot on Linux reads
 * CLOCK_THREAD_CPUTIME_ID, to the nanosecond); the wait is the scheduler's own run-queue time from Linux's
 * /proc/thread-self/schedstat, which exists only there. A thread is on a CPU, runnable and waiting for one, or neither:
 * blocked (json-multithreaded waiting for its pool's chunks, a lock, I/O) or stopped at a safepoint for a GC pause,
 * which it sleeps through until the collector lets it go. That third part is wall − cpu − wait; it is named by no
 * clock, so wall − cpu alone would blame the machine for a GC pause or a pool's work.
 */
object ThreadClock {
    private val bean = ManagementFactory.getThreadMXBean()

    /**
     * Whether [cpuNanos] can be read. HotSpot supports and enables it by default; a JVM that supports it with the
     * measurement switched off gets it switched on here (the service measures every run).
     */
    val cpuSupported: Boolean = bean.isCurrentThreadCpuTimeSupported && try {
        if (!bean.isThreadCpuTimeEnabled) bean.isThreadCpuTimeEnabled = true
        true
    } catch (e: UnsupportedOperationException) {
        false
    } catch (e: SecurityException) {
        false
    }

    private val SCHEDSTAT: Path = Path.of("/proc/thread-self/schedstat")

    /** Whether [cpuWaitNanos] can be read: Linux 3.17 and later with the scheduler's accounting (every distribution's). */
    val cpuWaitSupported: Boolean = readCpuWait() != null

    /** The calling thread's CPU time since it started, or null where this JVM cannot say ([cpuSupported]). */
    fun cpuNanos(): Long? = if (cpuSupported) bean.currentThreadCpuTime else null

    /** The calling thread's time runnable but waiting for a CPU since it started, or null off Linux ([cpuWaitSupported]). */
    fun cpuWaitNanos(): Long? = if (cpuWaitSupported) readCpuWait() else null

    // "<ns on a CPU> <ns runnable, waiting for one> <timeslices>". Opened and read anew each time (about 10 µs, twice a
    // run): the file names whichever thread opens it, and a handle kept per thread would outlive the pools of the
    // tests' many servers. A wait is added when the thread gets a CPU back, before it can read: exact to the read.
    private fun readCpuWait(): Long? = try {
        Files.readString(SCHEDSTAT).trim().split(' ')[1].toLong()
    } catch (e: Exception) {
        null
    }
}
