package lab.jvmserializer.metrics

import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import lab.jvmserializer.workloads.nanosToMs

/**
 * How a run's thread spent the run's wall time ([ThreadClock]): [cpuNanos] on a CPU, [cpuWaitNanos] runnable but
 * waiting for one, each null where this JVM or OS cannot say; the rest (wall − cpu − wait) it was blocked or stopped
 * for a GC pause. A JVM run is one call on one thread, so this is the whole run, where a Node service reports the
 * longest block of its event loop.
 */
class RunThreadTimes(val wallNanos: Long, val cpuNanos: Long?, val cpuWaitNanos: Long?) {
    /** The run answer's `thread`: `{wallMs, cpuMs, waitMs}`, waitMs meaning what a Node answer's maxBlockWaitMs means. */
    fun toJson() = JsonObject(mapOf(
        "wallMs" to JsonPrimitive(nanosToMs(wallNanos)),
        "cpuMs" to JsonPrimitive(cpuNanos?.let(::nanosToMs)),
        "waitMs" to JsonPrimitive(cpuWaitNanos?.let(::nanosToMs)),
    ))
}

/**
 * Watches the calling thread from [start] to [stop], both on that thread. The clocks are read in nested order (wall,
 * wait, CPU at the start; CPU, wait, wall at the end), so the CPU time and the wait, which are spent at different
 * moments, each fall inside the wall time and their sum cannot exceed it. Calling stop() again returns the first
 * figures, as loop-kit's startLoopWatch does.
 */
class RunThreadWatch private constructor() {
    private val thread = Thread.currentThread()
    private val wall = System.nanoTime()
    private val cpuWait = ThreadClock.cpuWaitNanos()
    private val cpu = ThreadClock.cpuNanos()
    private var times: RunThreadTimes? = null

    fun stop(): RunThreadTimes {
        times?.let { return it }
        check(Thread.currentThread() === thread) { "a thread's clocks are read on that thread only" }
        val cpuEnd = ThreadClock.cpuNanos()
        val cpuWaitEnd = ThreadClock.cpuWaitNanos()
        val wallEnd = System.nanoTime()
        return RunThreadTimes(wallEnd - wall, between(cpu, cpuEnd), between(cpuWait, cpuWaitEnd)).also { times = it }
    }

    // null unless both ends were read (the schedstat file could fail to open at one of them).
    private fun between(start: Long?, end: Long?): Long? = if (start != null && end != null) end - start else null

    companion object {
        fun start() = RunThreadWatch()
    }
}
