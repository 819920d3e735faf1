package lab.jvmserializer

import lab.jvmserializer.RawHttp.send
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * A PUT /documents body that stops arriving holds its request thread only until the idle timeout: the read fails, the
 * client gets 408 and the connection closes, and the thread serves again. The client waits on its socket's generous
 * timeout, so a server that kept waiting fails the test instead of a clock deciding it.
 */
class StalledBodyTest {
    @Test
    fun `a body that stops arriving is answered 408 after the idle timeout and frees its thread`() {
        DocumentService(Config(serdeThreads = 1, idleTimeoutMs = 1000, httpThreads = 2, maxConcurrentRuns = 1)).use { service ->
            val port = service.http.port
            // Until the handler runs (and tells Jetty an idle timeout should fail only a body's blocked read), an idle
            // timeout closes the connection unanswered; the first request to a new server takes Jetty's slow paths
            // (classes to load, code not yet compiled), which on a loaded machine outlasted a short idle timeout. The
            // subject here is a body that stops arriving, so the path is warmed first.
            assertEquals(201, service.http.putJson("[\"warm-up\"]").statusCode())
            RawHttp.connect(port).use { socket ->
                socket.send("PUT /documents HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n[1,")
                val response = RawHttp.readResponse(socket.getInputStream())
                assertEquals(408, response.status, response.body)
                assertTrue(RawHttp.closedByServer(socket.getInputStream()))
            }
            // Both request threads are free again: two requests at once are answered.
            val answers = listOf(service.http.getAsync("/healthz"), service.http.getAsync("/documents")).map { it.join().statusCode() }
            assertEquals(listOf(200, 200), answers)
        }
    }
}
