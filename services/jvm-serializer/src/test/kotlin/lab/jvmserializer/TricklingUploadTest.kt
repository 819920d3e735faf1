package lab.jvmserializer

import lab.jvmserializer.RawHttp.send
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.io.IOException
import java.net.Socket
import kotlin.concurrent.thread

/**
 * A PUT /documents body that trickles: it must arrive whole within REQUEST_TIMEOUT_MS of the request's first byte
 * (else 408 and the connection closes), and while it arrives it holds nothing the other uploads need. Each client
 * asks `Expect: 100-continue` and waits for the 100: the server sends it when the route starts reading the body, so
 * the test knows the upload is in the route. The settings are small and the clients trickle far longer than them;
 * the test asserts what is answered, never how long it took.
 */
class TricklingUploadTest {
    private val head = "PUT /documents HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
        "Transfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n"

    /** Sends [head] and waits for the interim 100 Continue. */
    private fun startUpload(port: Int): Socket = RawHttp.connect(port).also { socket ->
        socket.send(head)
        assertEquals(100, RawHttp.readResponse(socket.getInputStream(), bodyless = true).status)
    }

    private fun chunk(text: String) = "${Integer.toHexString(text.length)}\r\n$text\r\n"

    @Test
    fun `a body still arriving at REQUEST_TIMEOUT_MS is answered 408 and the connection closes`() {
        DocumentService(Config(serdeThreads = 1, idleTimeoutMs = 600_000, requestTimeoutMs = 1000)).use { service ->
            startUpload(service.http.port).use { socket ->
                // A byte every 100 ms, each well inside the idle timeout: only the whole-request deadline can end it.
                // Sent for up to a minute so that a server without that deadline answers the finished body instead.
                val trickle = thread(isDaemon = true) {
                    try {
                        socket.send(chunk("["))
                        repeat(600) {
                            Thread.sleep(100)
                            socket.send(chunk("1,"))
                        }
                        socket.send(chunk("1]") + "0\r\n\r\n")
                    } catch (e: IOException) {
                        // The server closed the connection: what the test expects.
                    } catch (e: InterruptedException) {
                    }
                }
                val answer = RawHttp.readResponse(socket.getInputStream())
                trickle.interrupt()
                assertEquals(408, answer.status, answer.body)
                assertTrue("error" in answer.json())
                assertEquals("close", answer.headers["connection"])
                assertTrue(RawHttp.closedByServer(socket.getInputStream()))
            }
            // The thread that read it is free: the service takes the next upload.
            assertEquals(201, service.http.putJson("""{"after": "a trickle"}""").statusCode())
        }
    }

    @Test
    fun `a body still arriving holds no other upload back`() {
        DocumentService(Config(serdeThreads = 1, idleTimeoutMs = 600_000, requestTimeoutMs = 600_000)).use { service ->
            startUpload(service.http.port).use { slow ->
                slow.send(chunk("""{"slow": ["""))
                val other = service.http.putJson("""{"fast": ${System.nanoTime()}}""")
                assertEquals(201, other.statusCode(), other.body())
                slow.send(chunk("1]}") + "0\r\n\r\n")
                assertEquals(201, RawHttp.readResponse(slow.getInputStream()).status)
            }
        }
    }
}
