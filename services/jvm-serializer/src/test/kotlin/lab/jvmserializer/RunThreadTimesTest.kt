package lab.jvmserializer

import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.double
import kotlinx.serialization.json.doubleOrNull
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import lab.jvmserializer.metrics.MetricNames
import lab.jvmserializer.metrics.ThreadClock
import lab.jvmserializer.payloads.digestOf
import lab.jvmserializer.workloads.IntParam
import lab.jvmserializer.workloads.RunParams
import lab.jvmserializer.workloads.RunRequest
import lab.jvmserializer.workloads.RunResult
import lab.jvmserializer.workloads.Workload
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.Test
import java.lang.management.ManagementFactory
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * A run's `thread` figures and the counters beside them (metrics/RunThreadWatch.kt), as properties, never against the
 * clock. Every run's CPU time and wait fit in its wall time and add up in /metrics. Then a run whose work is a fixed
 * amount of its own CPU time ([CpuPieceWorkload]), first alone, then with its thread pinned to one CPU shared with two
 * CPU hogs of the test's own (taskset, as loop-kit/test/block-attribution.test.js does for a Node loop): the scheduler
 * gives each of the three a share of that CPU, so while the piece wants it, its thread waits through the hogs' turns,
 * about twice its own, on any machine. Linux only (the thread's schedstat, taskset).
 */
class RunThreadTimesTest {
    @Test
    fun `every run says how its thread spent it, within its wall time, and the counters add the runs up`() {
        assertTrue(ThreadClock.cpuSupported, "HotSpot measures a thread's CPU time")
        val workload = serdeWorkload(config = Config(serdeThreads = 2))
        TestServer(listOf(workload)).use { service ->
            // json-multithreaded's thread also waits for its pool: that is neither CPU nor a wait for one.
            val runs = listOf("json", "json-multithreaded", "jackson").map { approach ->
                threadOf(service.get("/run/serde?approach=$approach&size=2000").also { assertEquals(200, it.statusCode(), it.body()) }.json())
            }
            for (run in runs) {
                assertTrue(run.cpuMs!! >= 0 && run.cpuMs + (run.waitMs ?: 0.0) <= run.wallMs + ROUNDING_MS, "on a CPU and waiting for one fit in the run: $run")
                if (ThreadClock.cpuWaitSupported) assertTrue(run.waitMs!! >= 0, "$run") else assertEquals(null, run.waitMs, "no schedstat: the wait is unknown, not 0")
            }
            val metrics = service.get("/metrics").body()
            assertEquals(runs.sumOf { it.wallMs } / 1000, counter(metrics, MetricNames.RUN_THREAD_WALL)!!, runs.size * ROUNDING_MS / 1000)
            assertEquals(runs.sumOf { it.cpuMs!! } / 1000, counter(metrics, MetricNames.RUN_THREAD_CPU)!!, runs.size * ROUNDING_MS / 1000)
            if (ThreadClock.cpuWaitSupported) {
                assertEquals(runs.sumOf { it.waitMs!! } / 1000, counter(metrics, MetricNames.RUN_THREAD_CPU_WAIT)!!, runs.size * ROUNDING_MS / 1000)
            } else {
                assertEquals(null, counter(metrics, MetricNames.RUN_THREAD_CPU_WAIT), "no counter that would say nothing waited")
            }
        }
        workload.pool.close()
    }

    @Test
    fun `a run alone is attributed to running, and on a CPU shared with two hogs its thread waits longer than it runs`() {
        assumeTrue(ThreadClock.cpuWaitSupported, "no /proc/thread-self/schedstat (not Linux)")
        assumeTrue(hasTaskset(), "no taskset (util-linux)")
        val cpu = allowedCpus().split(',', '-').first()
        val workload = CpuPieceWorkload(cpu)
        TestServer(listOf(workload)).use { service ->
            val alone = threadOf(service.get("/run/piece?pinned=0").json())
            assertTrue(alone.cpuMs!! >= PIECE_CPU_MS && alone.cpuMs + alone.waitMs!! <= alone.wallMs + ROUNDING_MS, "alone: the piece ran in its run: $alone")

            val hogs = mutableListOf<Process>()
            try {
                repeat(2) { hogs += startHog(cpu) }
                val before = counter(service.get("/metrics").body(), MetricNames.RUN_THREAD_CPU_WAIT)!!
                val shared = threadOf(service.get("/run/piece?pinned=1").json())
                val after = counter(service.get("/metrics").body(), MetricNames.RUN_THREAD_CPU_WAIT)!!
                assertTrue(shared.cpuMs!! >= PIECE_CPU_MS, "beside the hogs the piece still ran in its run: $shared")
                // Two hogs on its CPU take about two thirds of it while the piece wants it all.
                assertTrue(shared.waitMs!! > shared.cpuMs, "beside the hogs, their turns are waiting: $shared")
                assertTrue(shared.cpuMs + shared.waitMs <= shared.wallMs + ROUNDING_MS, "$shared")
                assertTrue(after - before >= (shared.waitMs - ROUNDING_MS) / 1000, "the counter holds the run's wait: ${after - before} s, $shared")
            } finally {
                hogs.forEach { it.destroyForcibly().waitFor(10, TimeUnit.SECONDS) }
            }
        }
    }

    /** An answer's `thread`, as the load driver reads it. */
    private data class ThreadFigures(val wallMs: Double, val cpuMs: Double?, val waitMs: Double?)

    private fun threadOf(answer: JsonObject): ThreadFigures {
        val thread = answer["thread"]?.jsonObject ?: error("the answer has no thread: $answer")
        return ThreadFigures(thread.getValue("wallMs").jsonPrimitive.double, thread.getValue("cpuMs").jsonPrimitive.doubleOrNull,
            thread.getValue("waitMs").jsonPrimitive.doubleOrNull)
    }

    /** A counter's value in Prometheus text, or null when it is not exported. */
    private fun counter(metrics: String, name: String): Double? =
        metrics.lines().firstOrNull { it.startsWith("$name ") }?.substringAfterLast(' ')?.toDouble()

    private fun hasTaskset(): Boolean = try {
        ProcessBuilder("taskset", "--version").redirectErrorStream(true).start().also { it.inputStream.readAllBytes() }.waitFor() == 0
    } catch (e: java.io.IOException) {
        false
    }

    /** A CPU hog on [cpu], returned once it spins. */
    private fun startHog(cpu: String): Process {
        val hog = ProcessBuilder("taskset", "-c", cpu, "sh", "-c", "echo spinning; while :; do :; done").start()
        val line = hog.inputReader().readLine()
        if (line != "spinning") hog.destroyForcibly().also { error("the hog did not spin: $line") }
        return hog
    }

    private companion object {
        // Each figure is rounded to the microsecond; the CPU clock and the wall clock are two clocks of the kernel.
        const val ROUNDING_MS = 0.01
    }
}

/** The CPU time [CpuPieceWorkload]'s run spins for. */
private const val PIECE_CPU_MS = 60

/** The CPUs this process may run on (its cpuset, in a container too), as taskset writes them: "0-1". */
private fun allowedCpus(): String =
    Regex("""^Cpus_allowed_list:\s*(\S+)""", RegexOption.MULTILINE).find(Files.readString(Path.of("/proc/thread-self/status")))!!.groupValues[1]

/**
 * Spins until its thread has run [PIECE_CPU_MS] of its own CPU time (the Node test's fixtures/cpu-piece.js); with
 * `pinned=1` its thread is first pinned to [cpu] and given back its CPUs after. Only this handler thread is pinned, so
 * the rest of the test's JVM runs as before.
 */
private class CpuPieceWorkload(private val cpu: String) : Workload {
    override val name = "piece"
    override val approaches = listOf("spin")
    override val params = listOf(IntParam("pinned", 0, 0, 1))
    override fun caseOf(params: RunParams) = "piece"

    override fun run(request: RunRequest): RunResult {
        val pinned = request.params.int("pinned") == 1
        val allowed = allowedCpus()
        if (pinned) taskset(cpu)
        try {
            val bean = ManagementFactory.getThreadMXBean()
            val until = bean.currentThreadCpuTime + PIECE_CPU_MS * 1_000_000L
            var spins = 0L
            while (bean.currentThreadCpuTime < until) spins++
            val digest = digestOf(spins.toString().encodeToByteArray())
            return RunResult(1.0, digest.bytes, digest.sha256, validated = true, reference = "test")
        } finally {
            if (pinned) taskset(allowed)
        }
    }

    /** Sets the calling thread's CPUs: its own task id, from /proc/thread-self ("<pid>/task/<tid>"). */
    private fun taskset(cpus: String) {
        val tid = Files.readSymbolicLink(Path.of("/proc/thread-self")).fileName.toString()
        val taskset = ProcessBuilder("taskset", "-p", "-c", cpus, tid).redirectErrorStream(true).start()
        val output = taskset.inputStream.readAllBytes().decodeToString()
        check(taskset.waitFor() == 0) { "taskset -p -c $cpus $tid: $output" }
    }
}
