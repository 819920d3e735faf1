package lab.jvmserializer

import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.int
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import java.security.MessageDigest

/** PUT /documents and GET /documents over real HTTP: what is kept, what is refused and how (CONTRACT.md). */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DocumentUploadTest {
    private val caps = DocumentSettings(maxCount = 3, maxBytes = 4000, maxDocumentBytes = 2000, maxDepth = 50)
    private val service = DocumentService(Config(serdeThreads = 2, documents = caps))
    private val http = service.http

    @AfterAll
    fun stop() = service.close()

    private fun sha256(bytes: ByteArray) = MessageDigest.getInstance("SHA-256").digest(bytes).joinToString("") { "%02x".format(it) }
    private fun JsonObject.str(key: String) = getValue(key).jsonPrimitive.content
    private fun JsonObject.int(key: String) = getValue(key).jsonPrimitive.int

    @Test
    fun `a JSON document is kept by the sha256 of its bytes, once, and never sent back`() {
        val text = """{"unique-${System.nanoTime()}": [1, {"b": "é"}]}"""
        val first = http.putJson(text)
        assertEquals(201, first.statusCode(), first.body())
        val body = first.json()
        assertEquals(sha256(text.encodeToByteArray()), body.str("sha256"))
        assertEquals("json", body.str("kind"))
        assertEquals(text.encodeToByteArray().size, body.int("bytes"))
        assertEquals(3, body.int("depth"))
        assertEquals("document=${body.str("sha256")}", body.str("run"))
        assertEquals(JsonArray(emptyList()), body.getValue("findings"))
        assertEquals(200, http.putJson(text).statusCode())
        val listed = http.get("/documents")
        assertEquals(200, listed.statusCode())
        assertFalse(listed.body().contains("unique-"), "GET /documents sends no text")
        val entry = listed.json().getValue("documents").jsonArray.map { it.jsonObject }.single { it.str("sha256") == body.str("sha256") }
        assertEquals("false", entry.str("inUse"))
    }

    @Test
    fun `info names the caps and the approaches a document runs through`() {
        val info = http.get("/info").json()
        val documents = info.getValue("documents").jsonObject
        assertEquals(listOf(3, 4000, 2000, 50), listOf("maxCount", "maxBytes", "maxDocumentBytes", "maxDepth").map { documents.int(it) })
        assertEquals("""["json"]""", documents.getValue("kinds").toString())
        val serde = info.getValue("workloads").jsonObject.getValue("serde").jsonObject
        assertEquals("""["json","json-multithreaded","jackson","jackson-cbor"]""", serde.getValue("documentApproaches").toString())
    }

    @Test
    fun `415 for a body not declared as uncompressed UTF-8 JSON, naming what is accepted`() {
        val text = "[1]".encodeToByteArray()
        val plain = http.put("/documents", text, mapOf("Content-Type" to "text/plain"))
        assertEquals(415, plain.statusCode())
        assertEquals("""["application/json"]""", plain.json().getValue("accepted").toString())
        val gzip = http.put("/documents", text, mapOf("Content-Type" to "application/json", "Content-Encoding" to "gzip"))
        assertEquals(415, gzip.statusCode())
        assertEquals("""["identity"]""", gzip.json().getValue("accepted").jsonObject.getValue("contentEncoding").toString())
        val latin1 = http.put("/documents", text, mapOf("Content-Type" to "application/json; charset=latin1"))
        assertEquals(415, latin1.statusCode())
        assertTrue(latin1.json().str("error").contains("latin1"))
    }

    @Test
    fun `413 over the cap, declared or chunked`() {
        val big = ("[" + "1,".repeat(1500) + "1]").encodeToByteArray()
        for (chunked in listOf(false, true)) {
            val response = http.put("/documents", big, mapOf("Content-Type" to "application/json"), chunked)
            assertEquals(413, response.statusCode(), "chunked=$chunked")
            assertEquals(2000, response.json().int("limitBytes"))
        }
    }

    @Test
    fun `413 before the body is read when its declared length is over the cap`() {
        // Three bytes of a declared 3000: a server that read the body first would wait for the rest, not answer.
        val response = RawHttp.exchange(http.port, "PUT /documents HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 3000\r\n\r\n[1,")
        assertEquals(413, response.status, response.body)
        assertEquals("close", response.headers["connection"])
    }

    @Test
    fun `400 naming the byte offset of a sequence that is not UTF-8`() {
        val bytes = byteArrayOf('['.code.toByte(), '"'.code.toByte(), 0xC3.toByte(), 0x28, '"'.code.toByte(), ']'.code.toByte())
        val response = http.put("/documents", bytes, mapOf("Content-Type" to "application/json"))
        assertEquals(400, response.statusCode())
        assertEquals(2, response.json().int("byteOffset"))
    }

    @Test
    fun `400 with the line, column and an excerpt where the text stops being JSON`() {
        val response = http.putJson("{\n  \"a\": 1,\n  \"b\": tru\n}")
        assertEquals(400, response.statusCode())
        val body = response.json()
        assertEquals(3, body.int("line"))
        assertEquals(8, body.int("column"))
        assertTrue(body.str("excerpt").contains("tru"), body.toString())
    }

    @Test
    fun `400 naming the depth past maxDepth, at maxDepth it is kept`() {
        val tooDeep = http.putJson("[".repeat(60) + "]".repeat(60))
        assertEquals(400, tooDeep.statusCode())
        assertEquals(60, tooDeep.json().int("depth"))
        assertEquals(50, tooDeep.json().int("maxDepth"))
        assertEquals(201, http.putJson("[".repeat(50) + "]".repeat(50)).statusCode())
    }

    @Test
    fun `403 for another site's request, a rebound Host on either route, a foreign Origin or Sec-Fetch-Site on PUT`() {
        val port = http.port
        fun put(headers: String) = RawHttp.exchange(port,
            "PUT /documents HTTP/1.1\r\n${headers}Content-Type: application/json\r\nContent-Length: 3\r\n\r\n[1]")
        val rebound = RawHttp.exchange(port, "GET /documents HTTP/1.1\r\nHost: attacker.example:${port}\r\n\r\n")
        assertEquals(403, rebound.status, rebound.body)
        assertTrue(rebound.json().getValue("allowed").toString().contains("jvm-serializer"), rebound.body)
        assertEquals(403, put("Host: 127.0.0.1:$port\r\nOrigin: http://attacker.example\r\n").status)
        assertEquals(403, put("Host: 127.0.0.1:$port\r\nSec-Fetch-Site: cross-site\r\n").status)
        val own = put("Host: localhost:$port\r\nOrigin: http://localhost:$port\r\nSec-Fetch-Site: same-origin\r\n")
        assertTrue(own.status in listOf(200, 201), own.body)
    }

    @Test
    fun `the store keeps maxCount documents, dropping the least recently used`() {
        val names = (1..4).map { """{"lru-$it-${System.nanoTime()}": true}""" }
        val ids = names.map { http.putJson(it).json().str("sha256") }
        val stored = http.get("/documents").json().getValue("documents").jsonArray.map { it.jsonObject.str("sha256") }
        assertEquals(3, stored.size)
        assertFalse(ids[0] in stored, "the least recently used went first")
        assertTrue(stored.containsAll(ids.drop(1)))
        val run = http.get("/run/serde?document=${ids[0]}")
        assertEquals(404, run.statusCode())
        assertEquals("document", run.json().str("parameter"))
    }
}
