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
 * Every row of CONTRACT.md's "Errors" table, as raw bytes on a plain socket (HttpClient would refuse to send most of
 * them): the status, a JSON content type, a string `error`, the row's detail field, whether the connection closes,
 * and that the service still answers /healthz afterwards. Cases that break two rules check the table's order.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ErrorsTest {
    private val service = TestServer(listOf(serdeWorkload()))

    @AfterAll
    fun stop() = service.close()

    /** [line] is a request line (a Host header and the blank line are added) or, ending in a blank line, a whole head. */
    private class Case(val line: String, val status: Int, val detail: String? = null, val value: String? = null, val closes: Boolean = false) {
        val head = if (line.endsWith("\r\n\r\n")) line else "$line\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n"
        val bodyless = line.startsWith("HEAD ")
        override fun toString() = line.take(70).replace("\r\n", "\\r\\n") + if (line.length > 70) "… (${line.length} chars)" else ""
    }

    private val routes = """["GET /healthz","GET /metrics","GET /info","GET /run/:workload"]"""
    private val range = """{"min":1,"max":100000}"""
    private val names = """["approach","document","size","seed","repeat"]"""
    private val approaches = """["json","json-multithreaded","cbor","jackson","jackson-cbor"]"""
    private val long = "a".repeat(5000)

    private val cases = listOf(
        // 1: a head that cannot be read: 400 and the connection closes.
        Case("XYZ1 /healthz HTTP/1.1", 400, closes = true),
        Case("get /healthz HTTP/1.1", 400, closes = true),
        Case("XYZ1 /$long HTTP/1.1", 400, closes = true), // row 1 before row 2
        Case("GARBAGE\r\n\r\n", 400, closes = true), // Jetty's parser refuses it
        Case("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n", 400, closes = true),
        Case("GET /healthz HTTP/1.1\r\n\r\n", 400, closes = true), // HTTP/1.1 without Host
        // 2: a target over 4096 bytes.
        Case("GET /run/serde?size=1&x=${"a".repeat(8 * 1024)} HTTP/1.1", 414, "limitBytes", "4096"),
        Case("GET /[$long HTTP/1.1", 414, "limitBytes", "4096"), // row 2 before row 3
        Case("GET /${"a".repeat(20 * 1024)} HTTP/1.1", 414, "limitBytes", "4096", closes = true), // past the 16 KiB head: Jetty's
        // 3: neither a path nor an absolute http(s) URL, a character not allowed in a path, a bad escape, a dot segment.
        Case("GET //[ HTTP/1.1", 400),
        Case("GET http://[ HTTP/1.1", 400),
        Case("GET http://a:99999/ HTTP/1.1", 400),
        Case("GET http://user:pw@a/healthz HTTP/1.1", 400),
        Case("GET http:///healthz HTTP/1.1", 400),
        Case("GET ftp://a/healthz HTTP/1.1", 400),
        Case("GET x/healthz HTTP/1.1", 400),
        Case("OPTIONS * HTTP/1.1", 400),
        Case("GET /run/../healthz HTTP/1.1", 400),
        Case("GET /run/%2e%2e/healthz HTTP/1.1", 400),
        Case("GET /run/./serde HTTP/1.1", 400),
        Case("GET /run/%2E/serde HTTP/1.1", 400),
        Case("GET /run/se]rde HTTP/1.1", 400),
        Case("GET /run/%zz HTTP/1.1", 400),
        Case("GET /run/% HTTP/1.1", 400),
        Case("GET /run/%FF HTTP/1.1", 400),
        Case("GET /run/%E2%82 HTTP/1.1", 400), // a UTF-8 sequence cut short
        Case("GET /healthz#top HTTP/1.1", 400),
        // 4: no route has the path: exact, case-sensitive, segment by segment.
        Case("GET //a:b@/ HTTP/1.1", 404, "routes", routes), // a valid path: segments "", "a:b@", ""
        Case("GET /nope HTTP/1.1", 404, "routes", routes),
        Case("GET /run/serde/ HTTP/1.1", 404, "routes", routes),
        Case("GET /RUN/serde HTTP/1.1", 404, "routes", routes),
        Case("GET /run/ HTTP/1.1", 404, "routes", routes),
        Case("GET /healthz;v=1 HTTP/1.1", 404, "routes", routes),
        Case("GET http://a:99/nope HTTP/1.1", 404, "routes", routes),
        Case("XYZ1 /nope HTTP/1.1", 400, closes = true), // row 1 before row 4
        Case("PROPFIND /healthz HTTP/1.1", 400, closes = true), // WebDAV's: not one of HTTP's methods
        // 5: the path has a route, the method does not.
        Case("POST /run/serde HTTP/1.1", 405, "allowed", """["GET"]"""),
        Case("HEAD /run/serde HTTP/1.1", 405), // a HEAD answer has no body: its Allow header is checked
        Case("PUT /healthz HTTP/1.1", 405, "allowed", """["GET"]"""),
        Case("HEAD /healthz HTTP/1.1", 405),
        Case("POST /run/nope?approach=%zz HTTP/1.1", 405, "allowed", """["GET"]"""), // row 5 before rows 6 and 7
        // 6: no such workload.
        Case("GET /run/nope HTTP/1.1", 404, "allowed", """["serde"]"""),
        Case("GET /run/nope?approach=%zz HTTP/1.1", 404, "allowed", """["serde"]"""), // row 6 before row 7
        // 7: the query's escapes.
        Case("GET /run/serde?approach=%zz HTTP/1.1", 400),
        Case("GET /run/serde?seed=%FF HTTP/1.1", 400),
        Case("GET /run/serde?size=%E2%82 HTTP/1.1", 400),
        Case("GET /run/serde?%zz=1 HTTP/1.1", 400),
        Case("GET /run/serde?sise=1&size=%zz HTTP/1.1", 400), // row 7 before row 8
        Case("GET /healthz?x=%zz HTTP/1.1", 400), // every route's query
        Case("GET /metrics?x=%FF HTTP/1.1", 400),
        Case("GET /nope?x=%zz HTTP/1.1", 404, "routes", routes), // row 4 before row 7
        // 8: parameters, names compared exactly, values plain decimal integers in range.
        Case("GET /run/serde?constructor=1 HTTP/1.1", 400, "parameter", "\"constructor\""),
        Case("GET /run/serde?__proto__=1 HTTP/1.1", 400, "parameter", "\"__proto__\""),
        Case("GET /run/serde?toString=1 HTTP/1.1", 400, "parameter", "\"toString\""),
        Case("GET /run/serde?Size=1 HTTP/1.1", 400, "parameter", "\"Size\""),
        Case("GET /run/serde?approach=JSON HTTP/1.1", 400, "allowed", approaches),
        Case("GET /run/serde?size=1&size=1 HTTP/1.1", 400, "parameter", "\"size\""),
        Case("GET /run/serde?sise=1 HTTP/1.1", 400, "allowed", names),
        Case("GET /run/serde?size=1.5 HTTP/1.1", 400, "allowed", range),
        Case("GET /run/serde?size=abc HTTP/1.1", 400, "allowed", range),
        Case("GET /run/serde?size= HTTP/1.1", 400, "allowed", range),
        Case("GET /run/serde?size HTTP/1.1", 400, "allowed", range),
        Case("GET /run/serde?size=1e3 HTTP/1.1", 400, "allowed", range),
        Case("GET /run/serde?size=0x10 HTTP/1.1", 400, "allowed", range),
        Case("GET /run/serde?size=%201 HTTP/1.1", 400, "allowed", range),
        Case("GET /run/serde?size=+1 HTTP/1.1", 400, "allowed", range), // '+' is a space
        Case("GET /run/serde?size=%2B1 HTTP/1.1", 400, "allowed", range),
        Case("GET /run/serde?size=%EF%BC%91 HTTP/1.1", 400, "allowed", range), // a fullwidth digit one
        Case("GET /run/serde?size=12345678901234567890 HTTP/1.1", 400, "allowed", range),
        Case("GET /run/serde?size=0 HTTP/1.1", 400, "allowed", range),
        Case("GET /run/serde?size=Infinity HTTP/1.1", 400, "allowed", range),
        Case("GET /run/serde?approach= HTTP/1.1", 400, "parameter", "\"approach\""),
        Case("GET /run/serde?valueOf=1 HTTP/1.1", 400, "parameter", "\"valueOf\""),
        Case("GET /run/serde?seed=2+ HTTP/1.1", 400, "allowed", """{"min":0,"max":2147483647}"""),
        // Not refusals: the same rules let these through.
        Case("GET http://a:99/healthz HTTP/1.1", 200),
        Case("GET HTTPS://a/run/serde?size=1 HTTP/1.1", 200),
        Case("GET /run/%73erde?size=1&&seed=2 HTTP/1.1", 200),
        Case("GET /healthz HTTP/1.0\r\n\r\n", 200), // the Docker healthcheck's request
        Case("GET /healthz?anything=1 HTTP/1.1", 200),
    )

    @TestFactory
    fun `each bad request gets the contract's answer and the service keeps serving`(): List<DynamicTest> = cases.map { case ->
        dynamicTest(case.toString()) {
            RawHttp.connect(service.port).use { socket ->
                socket.send(case.head)
                val response = RawHttp.readResponse(socket.getInputStream(), case.bodyless)
                assertEquals(case.status, response.status, response.body)
                assertTrue(response.headers.getValue("content-type").startsWith("application/json"), response.headers.toString())
                if (case.status == 405) assertEquals("GET", response.headers["allow"])
                if (!case.bodyless) {
                    val body = response.json()
                    if (case.status >= 400) assertTrue((body["error"] as JsonPrimitive).isString, "error is a string: $body")
                    case.detail?.let { assertEquals(Json.parseToJsonElement(case.value!!), body[it], body.toString()) }
                    // Words, never a stack trace or a class name.
                    assertTrue(!body.toString().contains("Exception") && !body.toString().contains("org.eclipse"), body.toString())
                }
                if (case.closes) assertTrue(RawHttp.closedByServer(socket.getInputStream()), "the connection closes")
            }
            assertEquals(200, service.get("/healthz").statusCode(), "still serving after $case")
        }
    }

    @TestFactory
    fun `HEAD gets the 405's head and no body`(): List<DynamicTest> = listOf("/run/serde", "/healthz").map { path ->
        dynamicTest(path) {
            RawHttp.connect(service.port).use { socket ->
                socket.send("HEAD $path HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                val response = RawHttp.readResponse(socket.getInputStream(), bodyless = true)
                assertEquals(405, response.status)
                assertEquals("GET", response.headers["allow"])
                assertEquals(-1, socket.getInputStream().read(), "nothing after the head")
            }
        }
    }

    @TestFactory
    fun `a connection kept after a refusal answers the next request`(): List<DynamicTest> =
        listOf("GET /run/%2e%2e/healthz", "GET /run/nope", "POST /run/serde", "GET /run/serde?size=%FF").map { line ->
            dynamicTest(line) {
                RawHttp.connect(service.port).use { socket ->
                    socket.send("$line HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n")
                    assertTrue(RawHttp.readResponse(socket.getInputStream()).status >= 400)
                    socket.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    assertEquals(200, RawHttp.readResponse(socket.getInputStream()).status)
                }
            }
        }
}
