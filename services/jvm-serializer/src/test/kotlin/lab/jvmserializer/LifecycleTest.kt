package lab.jvmserializer

import lab.jvmserializer.payloads.digestOf
import lab.jvmserializer.workloads.IntParam
import lab.jvmserializer.workloads.RunParams
import lab.jvmserializer.workloads.RunRequest
import lab.jvmserializer.workloads.RunResult
import lab.jvmserializer.workloads.Workload
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.io.IOException
import java.util.concurrent.CompletableFuture
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit

/**
 * Run outcomes and graceful shutdown. The workloads here are test fixtures that hold a run open on a latch, answer
 * wrongly or fail, so the server's side of each case is reached deterministically.
 */
class LifecycleTest {
    /** Holds each run until [release]; answers with the real digest of the bytes of its `n` parameter. */
    private class HeldWorkload : Workload {
        val entered = CountDownLatch(1)
        val release = CountDownLatch(1)
        override val name = "held"
        override val approaches = listOf("wait")
        override val params = listOf(IntParam("n", 1, 0, 9))
        override fun caseOf(params: RunParams) = "held"
        override fun run(request: RunRequest): RunResult {
            entered.countDown()
            check(release.await(30, TimeUnit.SECONDS)) { "never released" }
            val digest = digestOf(request.params.int("n").toString().encodeToByteArray())
            return RunResult(1.0, digest.bytes, digest.sha256, validated = true, reference = "test")
        }
    }

    /** Answers with an output that does not match its reference, or throws, as its approach says. */
    private class BrokenWorkload : Workload {
        override val name = "broken"
        override val approaches = listOf("wrong", "throws")
        override val params = emptyList<IntParam>()
        override fun caseOf(params: RunParams) = "broken"
        override fun run(request: RunRequest): RunResult = when (request.approach) {
            "wrong" -> RunResult(1.0, 0, digestOf(ByteArray(0)).sha256, validated = false, reference = "test")
            else -> throw IllegalStateException("the approach failed")
        }
    }

    @Test
    fun `an invalid run and a failing run are counted, answered, and the service keeps serving`() {
        TestServer(listOf(BrokenWorkload(), serdeWorkload())).use { service ->
            val wrong = service.get("/run/broken?approach=wrong")
            assertEquals(200, wrong.statusCode())
            assertEquals("false", wrong.json()["validated"].toString())
            val failed = service.get("/run/broken?approach=throws")
            assertEquals(500, failed.statusCode())
            assertEquals("\"the approach failed\"", failed.json()["error"].toString())
            assertEquals(200, service.get("/run/serde?size=1").statusCode())
            val metrics = service.get("/metrics").body()
            assertTrue(metrics.contains("""lab_runs_total{approach="wrong",outcome="invalid",workload="broken"} 1.0"""))
            assertTrue(metrics.contains("""lab_runs_total{approach="throws",outcome="error",workload="broken"} 1.0"""))
            // Only validated runs are timings.
            assertFalse(metrics.contains("""lab_run_duration_seconds_count{approach="wrong""""))
        }
    }

    @Test
    fun `a run beyond MAX_CONCURRENT_RUNS is refused with 503 and Retry-After`() {
        val held = HeldWorkload()
        TestServer(listOf(held, serdeWorkload()), Config(host = "127.0.0.1", port = 0, maxConcurrentRuns = 1)).use { service ->
            val inFlight = service.getAsync("/run/held")
            assertTrue(held.entered.await(10, TimeUnit.SECONDS))
            val refused = service.get("/run/serde?size=1")
            assertEquals(503, refused.statusCode())
            assertEquals("1", refused.headers().firstValue("Retry-After").orElse(null))
            assertEquals(200, service.get("/healthz").statusCode())
            held.release.countDown()
            assertEquals(200, inFlight.get(10, TimeUnit.SECONDS).statusCode())
            assertEquals(200, service.get("/run/serde?size=1").statusCode())
        }
    }

    @Test
    fun `a run whose size does not fit the run budget left by others is refused with 503`() {
        val held = HeldWorkload() // weighs 1
        TestServer(listOf(held, serdeWorkload()), Config(host = "127.0.0.1", port = 0, runBudget = 10)).use { service ->
            val inFlight = service.getAsync("/run/held")
            assertTrue(held.entered.await(10, TimeUnit.SECONDS))
            val refused = service.get("/run/serde?size=10")
            assertEquals(503, refused.statusCode())
            assertEquals("1", refused.headers().firstValue("Retry-After").orElse(null))
            assertEquals(200, service.get("/run/serde?size=9").statusCode(), "a run that fits beside it goes ahead")
            held.release.countDown()
            assertEquals(200, inFlight.get(10, TimeUnit.SECONDS).statusCode())
            assertEquals(200, service.get("/run/serde?size=10").statusCode())
        }
    }

    @Test
    fun `graceful shutdown turns healthz 503, finishes the in-flight request and stops accepting`() {
        val held = HeldWorkload()
        val service = TestServer(listOf(held))
        val inFlight = service.getAsync("/run/held?n=7")
        assertTrue(held.entered.await(10, TimeUnit.SECONDS))

        service.server.beginShutdown()
        val health = service.get("/healthz")
        assertEquals(503, health.statusCode())
        assertEquals("""{"status":"shutting-down"}""", health.body())

        val stopped = CompletableFuture.supplyAsync { service.server.stop(8000) }
        Thread.sleep(200)
        assertFalse(stopped.isDone, "stop must wait for the in-flight run")
        held.release.countDown()

        val answer = inFlight.get(10, TimeUnit.SECONDS)
        assertEquals(200, answer.statusCode())
        assertEquals(digestOf("7".encodeToByteArray()).sha256, answer.json()["hash"]!!.toString().trim('"'))
        assertTrue(stopped.get(10, TimeUnit.SECONDS), "stop reports a clean drain")
        assertThrows(IOException::class.java) { service.get("/healthz") }
    }

    @Test
    fun `stop gives up after its timeout when a request does not finish`() {
        val held = HeldWorkload()
        val service = TestServer(listOf(held))
        val inFlight = service.getAsync("/run/held")
        assertTrue(held.entered.await(10, TimeUnit.SECONDS))
        val started = System.nanoTime()
        assertFalse(service.server.stop(300))
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started) < 5000)
        held.release.countDown()
        assertTrue(runCatching { inFlight.get(10, TimeUnit.SECONDS) }.let { it.isFailure || it.getOrNull()!!.statusCode() == 200 })
    }
}
