package lab.jvmserializer

import lab.jvmserializer.metrics.GcPauses
import lab.jvmserializer.metrics.MetricNames
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.util.concurrent.TimeUnit

/**
 * What the JVM exports in place of an event loop's figures (CONTRACT.md, "Metrics"): how long a request waited for a
 * handler thread, and every collector pause. Bounded in rounds, never in time.
 */
class StallMetricsTest {
    /** The sum of a metric's samples in Prometheus text whose labels contain [labels]. */
    private fun sumOf(text: String, name: String, labels: String = ""): Double = text.lines()
        .filter { (it.startsWith("$name{") || it.startsWith("$name ")) && it.substringBefore(' ').contains(labels) }
        .sumOf { it.substringAfterLast(' ').toDouble() }

    @Test
    fun `a request that finds every handler thread busy waits for one, and the longest wait says at least how long`() {
        val held = HeldWorkload(runs = 2)
        // Two handler threads, both held by runs: what the contract's HTTP_THREADS > MAX_CONCURRENT_RUNS prevents, here
        // on purpose, so that /healthz must wait for a thread.
        val config = Config(host = "127.0.0.1", port = 0, httpThreads = 2, maxConcurrentRuns = 2)
        TestServer(listOf(held), config).use { service ->
            val runs = List(2) { service.getAsync("/run/held?approach=wait&n=$it") }
            assertTrue(held.entered.await(60, TimeUnit.SECONDS), "both runs hold a thread")
            val healthz = service.getAsync("/healthz")
            var rounds = 0
            while (service.server.queuedJobs == 0 && rounds++ < 6000) Thread.sleep(10)
            assertTrue(service.server.queuedJobs > 0, "the request's job waits in the pool's queue")
            val seenWaiting = System.nanoTime()
            Thread.sleep(100) // lets the wait grow to a size the assertion below can see; not asserted on
            val released = System.nanoTime()
            held.release.countDown()
            assertEquals(200, healthz.get(60, TimeUnit.SECONDS).statusCode())
            runs.forEach { assertEquals(200, it.get(60, TimeUnit.SECONDS).statusCode()) }
            val metrics = service.get("/metrics").body()
            val longest = sumOf(metrics, MetricNames.THREAD_WAIT_MAX)
            assertTrue(longest >= (released - seenWaiting) / 1e9, "the longest wait ($longest s) covers the time it was seen waiting")
            assertTrue(sumOf(metrics, "${MetricNames.THREAD_WAIT}_count") >= 1)
            assertTrue(sumOf(metrics, "${MetricNames.THREAD_WAIT}_sum") >= longest, "the longest wait is one of those counted")
        }
    }

    @Test
    fun `every collection is counted by kind, with the longest pause since the scrape`() {
        TestServer(listOf(serdeWorkload())).use { service ->
            val before = service.get("/metrics").body()
            var after = before
            var rounds = 0
            // A full collection, reported on the collectors' notification thread: asked again until it is counted.
            while (sumOf(after, "${MetricNames.GC_PAUSE}_count", """kind="major"""") <= sumOf(before, "${MetricNames.GC_PAUSE}_count", """kind="major"""") && rounds++ < 100) {
                System.gc()
                Thread.sleep(50)
                after = service.get("/metrics").body()
            }
            assertTrue(rounds <= 100, "System.gc()'s full collection was never counted")
            val paused = sumOf(after, "${MetricNames.GC_PAUSE}_sum") - sumOf(before, "${MetricNames.GC_PAUSE}_sum")
            val longest = sumOf(after, MetricNames.GC_PAUSE_MAX)
            assertTrue(longest >= 0 && longest <= paused + 1e-9, "the longest pause ($longest s) is one of those counted ($paused s)")
        }
    }

    @Test
    fun `a collector's action names its kind`() {
        assertEquals("minor", GcPauses.kindOf("end of minor GC"))
        assertEquals("major", GcPauses.kindOf("end of major GC"))
        assertEquals("other", GcPauses.kindOf("end of GC pause"))
    }
}
