package lab.jvmserializer

import kotlinx.serialization.json.Json
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
 * Heads that break HTTP/1.1's grammar or that the lab refuses on sight, with the answer every HTTP face of the lab
 * gives (the Node services answer the same list): the status, a JSON body of exactly `error` and the case's detail
 * field, and the connection closed after it. Raw bytes on a plain socket, Latin-1, so `\u00FF` is the byte 0xFF.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadHeadsTest {
    // An idle timeout far past the socket's 30 s read timeout: a connection that closes was closed by the refusal.
    private val service = TestServer(listOf(serdeWorkload()), Config(host = "127.0.0.1", port = 0, idleTimeoutMs = 600_000))

    @AfterAll
    fun stop() = service.close()

    /** [head] is the whole request as sent; [detail] the one field beside `error`, with its value as JSON. */
    private class Case(val name: String, val head: String, val status: Int, val detail: Pair<String, String>? = null) {
        override fun toString() = name
    }

    private val host = "Host: 127.0.0.1\r\n"
    private val versions = "allowed" to """["HTTP/1.0","HTTP/1.1"]"""

    private val cases = listOf(
        Case("a: a 20000-byte query, past the 16 KiB head", "GET /healthz?q=${"x".repeat(20_000)} HTTP/1.1\r\n$host\r\n", 414,
            "limitBytes" to "4096"),
        Case("a: a 5000-byte target with 12 KiB of headers", "GET /healthz?q=${"x".repeat(5000)} HTTP/1.1\r\n${host}X-Big: ${"y".repeat(12_000)}\r\n\r\n",
            414, "limitBytes" to "4096"),
        Case("a: a short target with 17 KiB of headers stays 431", "GET /healthz HTTP/1.1\r\n${host}X-Big: ${"y".repeat(17_000)}\r\n\r\n", 431),
        Case("b: two Host headers", "GET /healthz HTTP/1.1\r\n$host$host\r\n", 400),
        Case("c: HTTP/1.1 without Host", "GET /healthz HTTP/1.1\r\n\r\n", 400),
        Case("d: a space in a header name", "GET /healthz HTTP/1.1\r\n${host}Bad Header: x\r\n\r\n", 400),
        Case("e: HTTP/1.2", "GET /healthz HTTP/1.2\r\n$host\r\n", 505, versions),
        Case("f: a folded header", "GET /healthz HTTP/1.1\r\n${host}X-A: 1\r\n  continued\r\n\r\n", 400),
        Case("g: bare LF line ends", "GET /healthz HTTP/1.1\nHost: 127.0.0.1\n\n", 400),
        Case("g: one bare LF after a header", "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\n\r\n", 400),
        Case("h: no HTTP version", "GET /healthz\r\n$host\r\n", 505, versions),
        Case("i: HTTP/2.0 as text", "GET /healthz HTTP/2.0\r\n$host\r\n", 505, versions),
        Case("i: HTTP/2's preface as text", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505, versions),
        Case("j: Transfer-Encoding xchunked", "GET /healthz HTTP/1.1\r\n${host}Transfer-Encoding: xchunked\r\n\r\n", 400),
        Case("j: Transfer-Encoding gzip, chunked", "GET /healthz HTTP/1.1\r\n${host}Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 400),
        Case("k: a fragment", "GET /healthz?x#y HTTP/1.1\r\n$host\r\n", 400),
        Case("l: %00 in the path", "GET /healthz%00 HTTP/1.1\r\n$host\r\n", 400),
        Case("l: %1f in the query", "GET /healthz?a=%1f HTTP/1.1\r\n$host\r\n", 400),
        Case("l: %7F in the query of another route", "GET /run/serde?size=1&x=%7F HTTP/1.1\r\n$host\r\n", 400),
        Case("m: a raw 0xFF in the query", "GET /healthz?q=\u00FF HTTP/1.1\r\n$host\r\n", 400),
        Case("m: a raw 0xFF in the path", "GET /healthz\u00FF HTTP/1.1\r\n$host\r\n", 400),
        Case("m: a raw 0x80 in the query", "GET /healthz?q=\u0080 HTTP/1.1\r\n$host\r\n", 400),
        Case("m: a raw control byte in the query", "GET /healthz?q=\u0001 HTTP/1.1\r\n$host\r\n", 400),
        Case("m: a raw DEL in the path", "GET /healthz\u007F HTTP/1.1\r\n$host\r\n", 400),
        Case("n: Expect something", "GET /healthz HTTP/1.1\r\n${host}Expect: something\r\n\r\n", 417,
            "allowed" to """["100-continue"]"""),
        Case("o: CONNECT to an authority", "CONNECT 127.0.0.1:80 HTTP/1.1\r\n$host\r\n", 400),
    )

    @TestFactory
    fun `each bad head gets its JSON refusal and the connection closes`(): List<DynamicTest> = cases.map { case ->
        dynamicTest(case.name) {
            RawHttp.connect(service.port).use { socket ->
                socket.send(case.head)
                val response = RawHttp.readResponse(socket.getInputStream())
                assertEquals(case.status, response.status, response.body)
                assertTrue(response.headers.getValue("content-type").startsWith("application/json"), response.headers.toString())
                val body = response.json()
                assertTrue((body["error"] as JsonPrimitive).isString, "error is a string: $body")
                assertEquals(setOfNotNull("error", case.detail?.first), body.keys, body.toString())
                case.detail?.let { (field, value) -> assertEquals(Json.parseToJsonElement(value), body[field], body.toString()) }
                assertTrue(RawHttp.closedByServer(socket.getInputStream()), "the connection closes")
            }
            assertEquals(200, service.get("/healthz").statusCode(), "still serving after ${case.name}")
        }
    }

    @TestFactory
    fun `what the same rules let through is answered`(): List<DynamicTest> = listOf(
        "GET /healthz HTTP/1.0\r\n\r\n", // HTTP/1.0 needs no Host
        "GET /healthz HTTP/1.1\r\n${host}Expect: 100-continue\r\n\r\n",
        "GET /healthz HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "GET /healthz?q=%20%7E%C3%A9 HTTP/1.1\r\n$host\r\n", // escapes of printable characters
    ).map { head ->
        dynamicTest(head.substringBefore("\r\n")) {
            RawHttp.connect(service.port).use { socket ->
                socket.send(head)
                assertEquals(200, RawHttp.readResponse(socket.getInputStream()).status)
            }
        }
    }
}
