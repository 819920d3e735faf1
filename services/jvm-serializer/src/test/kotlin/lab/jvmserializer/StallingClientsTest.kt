package lab.jvmserializer

import lab.jvmserializer.RawHttp.send
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import java.io.IOException
import java.net.Socket
import java.net.SocketTimeoutException
import java.util.concurrent.TimeUnit

/**
 * CONTRACT.md, "Clients that stall": connections that send part of a request head and then nothing, or trickle it,
 * hold no thread, so /healthz answers while they are open, even with every run slot busy; idle ones are closed.
 * Each property is checked by order (answered while the others are still open), never by a duration.
 */
class StallingClientsTest {
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    fun `200 stalled and trickling connections and a full set of runs do not starve healthz`() {
        val held = HeldWorkload(runs = Config().maxConcurrentRuns)
        TestServer(listOf(held, serdeWorkload()), Config(host = "127.0.0.1", port = 0)).use { service ->
            val runs = (1..Config().maxConcurrentRuns).map { service.getAsync("/run/held") }
            assertTrue(held.entered.await(30, TimeUnit.SECONDS), "every run slot is busy")
            val stalled = (1..200).map { RawHttp.connect(service.port).apply { send("GET /healthz HTTP/1.1\r\n") } }
            try {
                // Trickle a header a byte at a time on every connection: each byte wakes the server, none holds it.
                stalled.forEach { it.send("X-Slow: ") }
                repeat(5) {
                    stalled.forEach { it.send("z") }
                    Thread.sleep(20)
                }
                assertEquals(200, service.get("/healthz").statusCode())
                assertEquals(200, service.get("/metrics").statusCode())
                // They were still open all along: each finishes its head now and is answered.
                stalled.forEach { it.send("\r\nHost: 127.0.0.1\r\n\r\n") }
                stalled.forEach { assertEquals(200, RawHttp.readResponse(it.getInputStream()).status) }
            } finally {
                stalled.forEach(Socket::close)
            }
            held.release.countDown()
            runs.forEach { assertEquals(200, it.get(30, TimeUnit.SECONDS).statusCode()) }
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    fun `connections idle for IDLE_TIMEOUT_MS are closed, mid-head or between requests`() {
        TestServer(listOf(serdeWorkload()), Config(host = "127.0.0.1", port = 0, idleTimeoutMs = 200)).use { service ->
            RawHttp.connect(service.port).use { midHead ->
                midHead.send("GET /healthz HTTP/1.1\r\n")
                // Jetty may answer the unfinished request (408) before closing; either way the server ends it.
                assertTrue(drainedToEnd(midHead), "a connection stalled mid-head is closed")
            }
            RawHttp.connect(service.port).use { keptAlive ->
                keptAlive.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                assertEquals(200, RawHttp.readResponse(keptAlive.getInputStream()).status)
                assertTrue(RawHttp.closedByServer(keptAlive.getInputStream()), "an idle keep-alive connection is closed")
            }
            assertEquals(200, service.get("/healthz").statusCode())
        }
    }

    /** Reads (and drops) whatever arrives until the server closes: true, or the socket's generous timeout: false. */
    private fun drainedToEnd(socket: Socket): Boolean {
        val buffer = ByteArray(4096)
        return try {
            while (socket.getInputStream().read(buffer) != -1) continue
            true
        } catch (e: SocketTimeoutException) {
            false
        } catch (e: IOException) {
            true // reset
        }
    }
}
