package lab.jvmserializer

import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonPrimitive
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance

/**
 * DNS rebinding and other sites' pages, over raw HTTP: a Host that is not one of the service's names reaches no
 * route but /healthz and /metrics, checked once the route is known (rows 4-6 of CONTRACT.md's errors first) and
 * before its query is read (rows 7-8 after); a GET from another site's page (Sec-Fetch-Site: cross-site) starts
 * nothing; a method that changes something carries the service's own Origin or none.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SameSiteTest {
    private val service = DocumentService(Config(serdeThreads = 1, profileToken = "driver-token"))
    private val port = service.http.port
    private val rebound = "rebound.example"

    @AfterAll
    fun stop() = service.close()

    private fun send(method: String, target: String, headers: String = "Host: $rebound\r\n", body: String = ""): RawResponse {
        val length = if (method == "PUT" || method == "POST") "Content-Type: application/json\r\nContent-Length: ${body.length}\r\n" else ""
        return RawHttp.exchange(port, "$method $target HTTP/1.1\r\n$headers$length\r\n$body")
    }

    @Test
    fun `a rebound name learns nothing of the stored documents from a run`() {
        val stored = service.http.putJson("""{"secret": ${System.nanoTime()}}""").json().getValue("sha256").jsonPrimitive.content
        val answer = send("GET", "/run/serde?approach=json&document=${"f".repeat(64)}")
        assertEquals(403, answer.status, answer.body)
        assertFalse(answer.body.contains(stored), answer.body)
        assertTrue(answer.json().getValue("allowed").jsonArray.map { it.jsonPrimitive.content }.contains("jvm-serializer"), answer.body)
    }

    @Test
    fun `every route but healthz and metrics refuses a Host that is not the service's`() {
        for ((method, target) in listOf("GET" to "/info", "GET" to "/run/serde", "GET" to "/documents", "PUT" to "/documents", "POST" to "/profile?seconds=1")) {
            val answer = send(method, target, body = if (method == "PUT") "[1]" else "")
            assertEquals(403, answer.status, "$method $target: ${answer.body}")
            assertTrue("allowed" in answer.json(), answer.body)
        }
        for (target in listOf("/healthz", "/metrics")) assertEquals(200, send("GET", target).status, target)
        for (own in listOf("localhost", "127.0.0.1:$port", "[::1]:$port", "jvm-serializer:$port", "lab.localhost")) {
            assertEquals(200, send("GET", "/info", "Host: $own\r\n").status, own)
        }
    }

    @Test
    fun `the Host is checked after the route is known and before its query is read`() {
        assertEquals(404, send("GET", "/nope").status)
        assertEquals(405, send("POST", "/run/serde").status)
        assertEquals(404, send("GET", "/run/nope").status)
        assertEquals(403, send("GET", "/run/serde?bogus=1").status)
        assertEquals(403, send("GET", "/info?x=%ZZ").status)
    }

    @Test
    fun `a GET from another site's page is refused, from the same site or the user it runs`() {
        val crossSite = send("GET", "/run/serde?size=1", "Host: 127.0.0.1:$port\r\nSec-Fetch-Site: cross-site\r\n")
        assertEquals(403, crossSite.status, crossSite.body)
        assertEquals(listOf("same-origin", "same-site", "none", "a navigation"), crossSite.json().getValue("allowed").jsonArray.map { it.jsonPrimitive.content })
        for (site in listOf("same-origin", "same-site", "none")) {
            assertEquals(200, send("GET", "/run/serde?size=1", "Host: 127.0.0.1:$port\r\nSec-Fetch-Site: $site\r\n").status, site)
        }
        val followed = "Host: 127.0.0.1:$port\r\nSec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: navigate\r\n"
        assertEquals(200, send("GET", "/info", followed + "Sec-Fetch-Dest: document\r\n").status, "a link the user followed")
        assertEquals(403, send("GET", "/info", followed + "Sec-Fetch-Dest: iframe\r\n").status, "a frame of another site's page")
    }

    @Test
    fun `a POST from another site's page is refused before its token is asked for`() {
        val foreign = send("POST", "/profile?seconds=1", "Host: 127.0.0.1:$port\r\nOrigin: http://attacker.example\r\n")
        assertEquals(403, foreign.status, foreign.body)
        assertEquals("close", foreign.headers["connection"])
        assertEquals(403, send("POST", "/profile?seconds=1", "Host: 127.0.0.1:$port\r\nSec-Fetch-Site: same-site\r\n").status)
        assertEquals(401, send("POST", "/profile?seconds=1", "Host: 127.0.0.1:$port\r\nOrigin: http://127.0.0.1:$port\r\n").status)
    }

    @Test
    fun `a request without Host (HTTP 1_0) is not a browser's and passes`() {
        assertEquals(200, RawHttp.exchange(port, "GET /info HTTP/1.0\r\n\r\n").status)
    }
}
