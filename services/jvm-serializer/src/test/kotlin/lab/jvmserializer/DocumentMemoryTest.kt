package lab.jvmserializer

import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import kotlinx.serialization.json.long
import lab.jvmserializer.documents.JsonScan
import lab.jvmserializer.memory.DocumentShape
import lab.jvmserializer.memory.UploadMemory
import lab.jvmserializer.payloads.sha256Hex
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance

/**
 * What the store takes is what this runtime can run, over real HTTP, with a small RUN_MEMORY_BYTES so that documents
 * of a few hundred KB stand for the 64 MiB ones: a document no approach can run is refused at upload (413 naming its
 * values and the most it could hold), one some approaches cannot run marks those `fails`, and a run or an upload the
 * memory held by others cannot take now is a 503 with Retry-After, while /metrics answers. The memory "in flight" is a
 * reservation the test holds itself: deterministic, where two real runs would race.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DocumentMemoryTest {
    private val capacity = 32L shl 20
    private val service = DocumentService(Config(serdeThreads = 1, runMemoryBytes = capacity, documents = DocumentSettings(maxDocumentBytes = 2 shl 20)))
    private val http = service.http
    private val approaches = service.workload.documentApproaches

    @AfterAll
    fun stop() = service.close()

    private fun JsonObject.str(key: String) = getValue(key).jsonPrimitive.content

    private fun shapeOf(text: String): DocumentShape {
        val (scan, _) = JsonScan.of(text, 10, findTopics = false)
        return DocumentShape(scan.nodes, scan.keys, text.length.toLong())
    }

    @Test
    fun `a document no approach can run here is refused at upload, naming its values and the most it could hold`() {
        val text = (1..200_000).joinToString(",", "[", "]") { "{}" }
        val answer = http.putJson(text)
        assertEquals(413, answer.statusCode(), answer.body())
        val body = answer.json()
        assertEquals(200_001, body.getValue("nodes").jsonPrimitive.long)
        val limit = body.getValue("limitNodes").jsonPrimitive.long
        assertTrue(limit in 1 until 200_001, body.toString())
        assertEquals(limit, UploadMemory.limitNodes(approaches.values.map { it.memory }, shapeOf(text), capacity))
        val stored = http.get("/documents").json().getValue("documents").jsonArray.map { it.jsonObject.str("sha256") }
        assertTrue(sha256Hex(text.encodeToByteArray()) !in stored, "nothing was kept")
    }

    @Test
    fun `info says how many values a document may hold here`() {
        val maxNodes = http.get("/info").json().getValue("documents").jsonObject.getValue("maxNodes").jsonPrimitive.long
        assertEquals(UploadMemory.maxNodes(approaches.values.map { it.memory }, capacity), maxNodes)
        assertTrue(maxNodes in 1 until capacity)
    }

    @Test
    fun `approaches that cannot run a document fail on it, the others run it`() {
        // The smallest array of zeros that one approach's model can run here and another's cannot.
        val text = generateSequence(10_000) { it + 2_000 }.map { n -> (1..n).joinToString(",", "[", "]") { "0" } }.first { t ->
            val fits = approaches.values.map { UploadMemory.checkBytes(it.memory, shapeOf(t)) <= capacity }
            !fits.all { it } || fits.none { it }
        }
        val fitting = approaches.filterValues { UploadMemory.checkBytes(it.memory, shapeOf(text)) <= capacity }.keys
        assertTrue(fitting.isNotEmpty() && fitting.size < approaches.size, "no mixed case at this capacity")
        val answer = http.putJson(text)
        assertEquals(201, answer.statusCode(), answer.body())
        val readings = answer.json().getValue("approaches").jsonObject
        for (name in approaches.keys) {
            val reading = readings.getValue(name).jsonObject
            if (name in fitting) assertEquals("same", reading.str("reading"), name)
            else {
                assertEquals("fails", reading.str("reading"), name)
                assertTrue(reading.str("error").contains("RUN_MEMORY_BYTES"), reading.toString())
            }
        }
        val sha256 = answer.json().str("sha256")
        val refused = http.get("/run/serde?approach=${(approaches.keys - fitting).first()}&document=$sha256")
        assertEquals(400, refused.statusCode(), refused.body())
        assertEquals(fitting.toList(), refused.json().getValue("allowed").jsonArray.map { it.jsonPrimitive.content })
        assertEquals(200, http.get("/run/serde?approach=${fitting.first()}&document=$sha256").statusCode())
    }

    @Test
    fun `a run or an upload the memory held by others cannot take now is a 503, and metrics answer`() {
        val sha256 = http.putJson("""{"small": [1, 2, 3]}""").json().str("sha256")
        // All of it: what is kept only for speed (a parsed tree, generated inputs) is dropped to make the room.
        val held = service.workload.memory.tryReserve(capacity) ?: error("the budget was not free")
        held.use {
            for (path in listOf("/run/serde?approach=jackson&document=$sha256", "/run/serde?size=10")) {
                val busy = http.get(path)
                assertEquals(503, busy.statusCode(), busy.body())
                assertEquals("1", busy.headers().firstValue("Retry-After").orElse(null))
                assertTrue("error" in busy.json())
            }
            assertEquals(503, http.putJson("""{"another": ${System.nanoTime()}}""").statusCode())
            assertEquals(200, http.get("/metrics").statusCode())
        }
        assertEquals(200, http.get("/run/serde?approach=jackson&document=$sha256").statusCode())
        assertEquals(200, http.get("/run/serde?size=10").statusCode())
    }
}
