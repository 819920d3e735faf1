package lab.jvmserializer

import kotlinx.serialization.json.boolean
import kotlinx.serialization.json.jsonPrimitive
import lab.jvmserializer.http.RequestTarget
import lab.jvmserializer.http.RunRoute
import lab.jvmserializer.metrics.LabMetrics
import lab.jvmserializer.serde.SerdeMetrics
import lab.jvmserializer.serde.SerdePool
import lab.jvmserializer.workloads.HttpError
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import java.util.concurrent.CompletableFuture
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import java.util.concurrent.atomic.AtomicReference

/**
 * The shared pool of json-multithreaded: one pool for every run, runs that never wait idle behind others, and
 * interrupts that end a run as RunRoute's 503. Checked by order (latches, counters), never by a duration.
 */
class SerdePoolTest {
    @Test
    fun `concurrent json-multithreaded runs share one pool and all validate`() {
        val workload = serdeWorkload(config = Config(serdeThreads = 2, serdeParallelMinObjects = 8))
        TestServer(listOf(workload)).use { service ->
            val submittedBefore = workload.pool.submittedTasks()
            repeat(3) { round ->
                val runs = (1..4).map { service.getAsync("/run/serde?approach=json-multithreaded&size=${300 + round}&seed=$it") }
                runs.forEach { response ->
                    val r = response.get(60, TimeUnit.SECONDS)
                    assertEquals(200, r.statusCode(), r.body())
                    assertTrue(r.json().getValue("validated").jsonPrimitive.boolean, r.body())
                }
            }
            // Twelve runs, each with several chunks both ways, all through the one pool, which never grew.
            assertTrue(workload.pool.submittedTasks() - submittedBefore >= 12 * 2 * 2, "chunks went through the shared pool")
            assertEquals(2, workload.pool.threadsStarted())
            assertTrue(service.get("/metrics").body().contains("lab_serde_pool_threads 2.0"))
        }
        workload.pool.close()
    }

    @Test
    fun `a run whose pool threads are all held by others still finishes on its own thread`() {
        val workload = serdeWorkload(config = Config(serdeThreads = 2, serdeParallelMinObjects = 8))
        val hold = CountDownLatch(1)
        val holding = CountDownLatch(2)
        val others = workload.pool.batch()
        repeat(2) { others.submit { holding.countDown(); hold.await() } }
        try {
            assertTrue(holding.await(30, TimeUnit.SECONDS), "both pool threads are held")
            assertEquals(2, workload.pool.busyThreads())
            TestServer(listOf(workload)).use { service ->
                val result = service.get("/run/serde?approach=json-multithreaded&size=500").json()
                assertTrue(result.getValue("validated").jsonPrimitive.boolean, result.toString())
            }
        } finally {
            hold.countDown()
            workload.pool.close()
        }
    }

    @Test
    fun `an interrupt before the wait drops the chunks not started, and the pool goes on`() {
        SerdePool(1).use { pool ->
            val started = CountDownLatch(1)
            val release = CountDownLatch(1)
            val ran = AtomicInteger()
            val batch = pool.batch()
            batch.submit { started.countDown(); release.await(); 0 }
            assertTrue(started.await(30, TimeUnit.SECONDS), "the pool's one thread holds the first chunk")
            repeat(2) { batch.submit { ran.incrementAndGet() } } // queued behind it
            val outcome = AtomicReference<Throwable?>()
            val waiter = Thread {
                Thread.currentThread().interrupt() // what Jetty's stop sends to a run's thread
                outcome.set(runCatching { batch.awaitAll<Int>() }.exceptionOrNull())
            }
            waiter.start()
            waiter.join(30_000)
            assertTrue(outcome.get() is InterruptedException, outcome.get().toString())
            release.countDown()
            // FIFO: had the two queued chunks not been cancelled, they would run before these.
            val next = pool.batch()
            repeat(3) { i -> next.submit { i * 10 } }
            assertEquals(listOf(0, 10, 20), next.awaitAll<Int>())
            assertEquals(0, ran.get(), "cancelled chunks never run")
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    fun `an interrupt while waiting for a chunk another thread runs ends the wait`() {
        SerdePool(1).use { pool ->
            val started = CountDownLatch(1)
            val release = CountDownLatch(1)
            val batch = pool.batch()
            batch.submit { started.countDown(); release.await(); 0 }
            assertTrue(started.await(30, TimeUnit.SECONDS))
            val outcome = AtomicReference<Throwable?>()
            val waiter = Thread { outcome.set(runCatching { batch.awaitAll<Int>() }.exceptionOrNull()) }
            waiter.start()
            // Its only wait is for the held chunk: interrupt it once it is parked there.
            while (waiter.state != Thread.State.WAITING) Thread.onSpinWait()
            waiter.interrupt()
            waiter.join(30_000)
            assertFalse(waiter.isAlive)
            assertTrue(outcome.get() is InterruptedException, outcome.get().toString())
            release.countDown()
        }
    }

    @Test
    fun `a json-multithreaded run interrupted by shutdown answers 503 and counts as interrupted`() {
        val workload = serdeWorkload(config = Config(serdeThreads = 2, serdeParallelMinObjects = 8))
        val metrics = LabMetrics()
        workload.registerMetrics(metrics.registry)
        val route = RunRoute(listOf(workload), metrics, 4, 100_000)
        val target = RequestTarget.parse("/run/serde?approach=json-multithreaded&size=500&repeat=20")
        val refusal = CompletableFuture.supplyAsync {
            Thread.currentThread().interrupt()
            try {
                runCatching { route.handle("serde", target) }.exceptionOrNull()
            } finally {
                Thread.interrupted() // the flag must not leak into the shared common pool's thread
            }
        }.get(60, TimeUnit.SECONDS)
        assertTrue(refusal is HttpError && refusal.status == 503, refusal.toString())
        val text = String(metrics.exposition())
        assertTrue(text.contains("""lab_runs_total{approach="json-multithreaded",outcome="interrupted",workload="serde"} 1.0"""), text)
        // The pool and the route serve the next run.
        val answer = route.handle("serde", RequestTarget.parse("/run/serde?approach=json-multithreaded&size=500"))
        assertEquals(200, answer.status)
        workload.pool.close()
    }

    @Test
    fun `scale is the size rounded down to a power of ten`() {
        val cases = mapOf(1 to "1", 9 to "1", 10 to "10", 99 to "10", 100 to "100", 999 to "100", 1000 to "1000", 12345 to "10000", 100000 to "100000")
        cases.forEach { (size, scale) -> assertEquals(scale, SerdeMetrics.scaleOf(size), "size $size") }
        assertThrows(IllegalArgumentException::class.java) { SerdeMetrics.scaleOf(0) }
    }
}
