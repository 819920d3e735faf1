package lab.jvmserializer

import kotlinx.serialization.json.JsonPrimitive
import lab.jvmserializer.RawHttp.send
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.DynamicTest.dynamicTest
import org.junit.jupiter.api.TestFactory
import org.junit.jupiter.api.TestInstance

/**
 * Valid requests pipelined ahead of a broken one, all in one write: each valid one is answered, in order, then the
 * broken one gets its 400 JSON and the connection closes (nothing after a head we cannot read can be trusted).
 * No route of this service reads a body, so a body longer than its Content-Length is sent on GET /healthz: its
 * declared bytes are skipped and the rest is read as the next request head, which is garbage.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PipeliningTest {
    // An idle timeout far past the socket's 30 s read timeout: a connection that closes was closed by the refusal.
    private val service = TestServer(listOf(serdeWorkload()), Config(host = "127.0.0.1", port = 0, idleTimeoutMs = 600_000))

    @AfterAll
    fun stop() = service.close()

    private val healthz = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"

    private val cases = mapOf(
        "a broken header after one request" to
            (healthz + "GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: x\r\n\r\n" to 1),
        "a broken header after three requests" to
            (healthz.repeat(3) + "GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: x\r\n\r\n" to 3),
        "a body longer than its Content-Length, then garbage" to
            (healthz + "GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabcGARBAGE\r\n\r\n" to 2),
    )

    @TestFactory
    fun `pipelined valid requests are answered in order, then the broken one gets 400 and the connection closes`(): List<DynamicTest> =
        cases.map { (name, case) ->
            val (bytes, valid) = case
            dynamicTest(name) {
                RawHttp.connect(service.port).use { socket ->
                    socket.send(bytes)
                    val input = socket.getInputStream()
                    repeat(valid) { i ->
                        val response = RawHttp.readResponse(input)
                        assertEquals(200, response.status, "answer ${i + 1}: ${response.body}")
                        assertEquals("ok", (response.json()["status"] as JsonPrimitive).content)
                    }
                    val refusal = RawHttp.readResponse(input)
                    assertEquals(400, refusal.status, refusal.body)
                    assertTrue(refusal.headers.getValue("content-type").startsWith("application/json"), refusal.headers.toString())
                    assertTrue((refusal.json()["error"] as JsonPrimitive).isString, refusal.body)
                    assertTrue(RawHttp.closedByServer(input), "the connection closes after the 400")
                }
                assertEquals(200, service.get("/healthz").statusCode(), "still serving after $name")
            }
        }
}
