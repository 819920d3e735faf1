package lab.jvmserializer

import lab.jvmserializer.RawHttp.send
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import java.io.IOException
import java.net.Socket
import java.net.SocketTimeoutException
import java.util.concurrent.TimeUnit

/**
 * CONTRACT.md, "Clients that stall": connections that send part of a request head and then nothing, or trickle it,
 * hold no thread, so /healthz answers while they are open, even with every run slot busy; idle ones are closed, and a
 * head that takes longer than HEADERS_TIMEOUT_MS (or REQUEST_TIMEOUT_MS) is answered 408 however steadily it trickles.
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
        // Long enough that a loaded machine reads a request that was sent at once before it counts as idle (at 200 ms a
        // server descheduled that long closed the keep-alive connection before its first request, unanswered).
        TestServer(listOf(serdeWorkload()), Config(host = "127.0.0.1", port = 0, idleTimeoutMs = 3000)).use { service ->
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

    @ParameterizedTest(name = "HEADERS_TIMEOUT_MS {0}, REQUEST_TIMEOUT_MS {1}")
    @CsvSource("300, 60000", "60000, 300")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    fun `a head trickled past its timeout is answered 408 and closed while it still trickles`(headersMs: Long, requestMs: Long) {
        // The idle timeout is far off, and each byte restarts it anyway: only the head's own deadline can cut it.
        val config = Config(host = "127.0.0.1", port = 0, idleTimeoutMs = 120_000, headersTimeoutMs = headersMs, requestTimeoutMs = requestMs)
        TestServer(listOf(serdeWorkload()), config).use { service ->
            RawHttp.connect(service.port).use { socket ->
                socket.send("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                // One byte every 50 ms, for up to a minute: the head is never finished, so any answer is to a head
                // still trickling. A write the server refuses (it closed) ends the trickle too.
                var sent = 0
                while (sent < TRICKLE_BYTES && socket.getInputStream().available() == 0) {
                    try {
                        socket.send("z")
                    } catch (e: IOException) {
                        break
                    }
                    sent++
                    Thread.sleep(50)
                }
                assertTrue(sent < TRICKLE_BYTES, "the head was cut while it still trickled")
                val response = RawHttp.readResponse(socket.getInputStream())
                assertEquals(408, response.status, response.body)
                assertTrue(response.headers.getValue("content-type").startsWith("application/json"))
                assertEquals(setOf("error"), response.json().keys, response.body)
                assertTrue(RawHttp.closedByServer(socket.getInputStream()), "the connection closes after the 408")
            }
            assertEquals(200, service.get("/healthz").statusCode())
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    fun `a head that goes silent is answered 408 at its timeout, long before the idle timeout`() {
        // The socket's 30 s read timeout ends the wait long before the 10-minute idle timeout could close it.
        val config = Config(host = "127.0.0.1", port = 0, idleTimeoutMs = 600_000, headersTimeoutMs = 300)
        TestServer(listOf(serdeWorkload()), config).use { service ->
            RawHttp.connect(service.port).use { socket ->
                socket.send("GET /healthz HTTP/1.1\r\nHost: x\r\n")
                val response = RawHttp.readResponse(socket.getInputStream())
                assertEquals(408, response.status, response.body)
                assertTrue(RawHttp.closedByServer(socket.getInputStream()), "the connection closes after the 408")
            }
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    fun `the head timeouts neither cut a connection idle between requests nor a run that outlasts them`() {
        val held = HeldWorkload()
        val config = Config(host = "127.0.0.1", port = 0, idleTimeoutMs = 600_000, headersTimeoutMs = 300, requestTimeoutMs = 300)
        TestServer(listOf(held, serdeWorkload()), config).use { service ->
            RawHttp.connect(service.port).use { socket ->
                socket.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                assertEquals(200, RawHttp.readResponse(socket.getInputStream()).status)
                Thread.sleep(1000) // not a measurement: lets both head timeouts pass between two requests
                socket.send("GET /run/held HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                assertTrue(held.entered.await(30, TimeUnit.SECONDS), "the run started")
                Thread.sleep(1000) // and again while the run holds the request, its head long complete
                held.release.countDown()
                assertEquals(200, RawHttp.readResponse(socket.getInputStream()).status)
            }
        }
    }

    @Test
    fun `a head gets the shorter of HEADERS_TIMEOUT_MS and REQUEST_TIMEOUT_MS, 0 meaning no limit`() {
        fun headTimeout(vararg env: Pair<String, String>) = Config.fromEnvironment(mapOf(*env)).headTimeoutMs
        assertEquals(10_000, headTimeout())
        assertEquals(500, headTimeout("REQUEST_TIMEOUT_MS" to "500"))
        assertEquals(60_000, headTimeout("HEADERS_TIMEOUT_MS" to "0"))
        assertEquals(0, headTimeout("HEADERS_TIMEOUT_MS" to "0", "REQUEST_TIMEOUT_MS" to "0"))
        assertThrows(IllegalArgumentException::class.java) { headTimeout("HEADERS_TIMEOUT_MS" to "-1") }
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

    private companion object {
        /** A minute of trickle at one byte per 50 ms: far past either timeout of the test, on any machine. */
        const val TRICKLE_BYTES = 1200
    }
}
