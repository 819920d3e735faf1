package lab.jvmserializer

import kotlinx.serialization.json.int
import kotlinx.serialization.json.jsonPrimitive
import lab.jvmserializer.payloads.digestOf
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import lab.jvmserializer.RawHttp.send
import org.junit.jupiter.api.Test
import java.io.IOException
import java.util.concurrent.CompletableFuture
import java.util.concurrent.ExecutionException
import java.util.concurrent.TimeUnit

/**
 * Run outcomes and graceful shutdown, with the fixtures of TestWorkloads.kt (a run held open on a latch, a wrong
 * answer, a failure), so the server's side of each case is reached deterministically.
 */
class LifecycleTest {
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
    fun `healthz counts the runs in progress, one whose client went away until its approach returns`() {
        val held = HeldWorkload(runs = 2)
        TestServer(listOf(held, serdeWorkload()), Config(host = "127.0.0.1", port = 0)).use { service ->
            assertEquals(0, runsOf(service))
            val answered = service.getAsync("/run/held")
            RawHttp.connect(service.port).use { abandoned ->
                abandoned.send("GET /run/held HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                assertTrue(held.entered.await(30, TimeUnit.SECONDS), "both runs started")
                assertEquals(2, runsOf(service))
            }
            // Its client is gone; the run is not, until its approach returns.
            assertEquals(2, runsOf(service))
            held.release.countDown()
            assertEquals(200, answered.get(30, TimeUnit.SECONDS).statusCode())
            // The abandoned run ends on its own thread, in no set order with the answered one: awaited, bounded.
            val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30)
            while (runsOf(service) != 0 && System.nanoTime() < deadline) Thread.sleep(10)
            assertEquals(0, runsOf(service))
        }
    }

    private fun runsOf(service: TestServer): Int {
        val health = service.get("/healthz")
        assertEquals(200, health.statusCode())
        return health.json().getValue("runs").jsonPrimitive.int
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
    fun `a run that outlasts IDLE_TIMEOUT_MS is still answered`() {
        val held = HeldWorkload()
        TestServer(listOf(held), Config(host = "127.0.0.1", port = 0, idleTimeoutMs = 100)).use { service ->
            val inFlight = service.getAsync("/run/held")
            assertTrue(held.entered.await(10, TimeUnit.SECONDS))
            Thread.sleep(1000) // not a measurement: lets the connection's idle timeout pass several times mid-run
            held.release.countDown()
            assertEquals(200, inFlight.get(30, TimeUnit.SECONDS).statusCode())
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

        val idle = RawHttp.connect(service.port)
        idle.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assertEquals(503, RawHttp.readResponse(idle.getInputStream()).status)

        val stopped = CompletableFuture.supplyAsync { service.server.stop(30_000) }
        // An idle keep-alive connection is closed while the in-flight run is still held, and stop waits for the run.
        assertTrue(RawHttp.closedByServer(idle.getInputStream()), "the idle keep-alive connection closes")
        idle.close()
        assertFalse(stopped.isDone, "stop must wait for the in-flight run")
        held.release.countDown()

        val answer = inFlight.get(10, TimeUnit.SECONDS)
        assertEquals(200, answer.statusCode())
        assertEquals(digestOf("7".encodeToByteArray()).sha256, answer.json()["hash"]!!.toString().trim('"'))
        assertTrue(stopped.get(10, TimeUnit.SECONDS), "stop reports a clean drain")
        assertThrows(IOException::class.java) { service.get("/healthz") }
    }

    @Test
    fun `stop gives up after its timeout when a request does not finish, and cuts it`() {
        val held = HeldWorkload()
        val service = TestServer(listOf(held))
        val inFlight = service.getAsync("/run/held")
        assertTrue(held.entered.await(10, TimeUnit.SECONDS))
        // Returns while the run is still held: it reports the unclean stop instead of waiting for it.
        assertFalse(service.server.stop(300))
        assertEquals(1L, held.release.count, "the run is still held")
        // The stuck request's connection was closed: its client sees the failure without the run ever finishing.
        assertThrows(ExecutionException::class.java) { inFlight.get(30, TimeUnit.SECONDS) }
        held.release.countDown()
    }
}
