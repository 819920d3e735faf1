package lab.jvmserializer

import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.boolean
import kotlinx.serialization.json.int
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.DynamicTest.dynamicTest
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestFactory
import org.junit.jupiter.api.TestInstance

/** /run/serde?document=<sha256> over real HTTP: every document approach, the findings, and what a run says of them. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DocumentRunsTest {
    // A threshold of one object's worth of text, so a document of a few KB is split across the pool.
    private val service = DocumentService(Config(serdeThreads = 2, serdeParallelMinObjects = 1))
    private val http = service.http
    private val approaches = service.workload.documentApproaches.keys.toList()

    @AfterAll
    fun stop() = service.close()

    private fun JsonObject.str(key: String) = getValue(key).jsonPrimitive.content

    private fun put(text: String): JsonObject {
        val response = http.putJson(text)
        assertTrue(response.statusCode() in listOf(200, 201), response.body())
        return response.json()
    }

    private fun run(approach: String, sha256: String): JsonObject {
        val response = http.get("/run/serde?approach=$approach&document=$sha256&repeat=2")
        assertEquals(200, response.statusCode(), response.body())
        return response.json()
    }

    /** Nested objects, escapes spelled two ways, non-ASCII, numbers each library writes as they stand. */
    private val plain = buildString {
        append("""{"title": "caf\u00e9 \/ \"q\" é \ud83d\ude00\n", "meta": {"n": [0, -3, 2.5, 1.0E-7, true, false, null]}, "rows": [""")
        append((1..200).joinToString(",\n") { """{"id": $it, "tags": ["a$it", "b,]}$it"], "nested": {"x": [$it, [$it]]}}""" })
        append("], \"tail\": []}")
    }

    @TestFactory
    fun `every document approach validates against the document's canonical form`(): List<DynamicTest> {
        val sha256 = put(plain).str("sha256")
        return approaches.map { approach ->
            dynamicTest(approach) {
                val result = run(approach, sha256)
                assertEquals(true, result.getValue("validated").jsonPrimitive.boolean, result.toString())
                assertEquals("canonical-document", result.str("reference"))
                assertEquals("document", result.str("case"))
                assertFalse(result.containsKey("findings"))
            }
        }
    }

    @Test
    fun `json-multithreaded splits the bulk on the pool and writes json's text exactly`() {
        val sha256 = put(plain).str("sha256")
        val json = run("json", sha256)
        val before = service.workload.pool.submittedTasks()
        val split = run("json-multithreaded", sha256)
        assertTrue(service.workload.pool.submittedTasks() > before, "chunks went to the pool")
        assertEquals(json.str("hash"), split.str("hash"))
        assertEquals(true, split.getValue("validated").jsonPrimitive.boolean)
    }

    @Test
    fun `a json-multithreaded run says where it split the document, or why it declined`() {
        val packument = run("json-multithreaded", put(BulkDocuments.packument(300)).str("sha256"))
        val split = packument.getValue("split").jsonObject
        assertEquals(true, split.getValue("split").jsonPrimitive.boolean, split.toString())
        assertEquals("/versions", split.str("path"))
        assertEquals("object", split.str("container"))
        assertEquals(8, split.getValue("chunks").jsonPrimitive.int)
        assertTrue(split.str("detail").startsWith("split the object at /versions into 8 chunks"), split.toString())
        assertEquals(true, packument.getValue("validated").jsonPrimitive.boolean)

        val readme = run("json-multithreaded", put(BulkDocuments.readmeHeavy(100)).str("sha256"))
        val declined = readme.getValue("split").jsonObject
        assertEquals(false, declined.getValue("split").jsonPrimitive.boolean, declined.toString())
        assertTrue(declined.str("detail").startsWith("declined: "), declined.toString())
        assertEquals(true, readme.getValue("validated").jsonPrimitive.boolean)
        assertFalse(run("json", put(BulkDocuments.readmeHeavy(100)).str("sha256")).containsKey("split"))
    }

    @Test
    fun `the findings name each topic's first instance, count it, and say what each approach did with it`() {
        val text = """{"big": 12345678901234567890123, "z": [1, -0], "d": {"k": 1, "k": 2}, "s": "a\ud800b", "f": 1.50, "g": [1e2, 12345678901234567890124]}"""
        val answer = put(text)
        val findings = answer.getValue("findings").jsonArray.map { it.jsonObject }
        assertEquals(listOf("large-integer", "negative-zero", "duplicate-key", "lone-surrogate", "number-format"), findings.map { it.str("topic") })
        assertEquals(listOf("/big", "/z/1", "/d/k", "/s", "/f"), findings.map { it.str("path") })
        assertEquals(listOf(2, 1, 1, 1, 2), findings.map { it.getValue("count").jsonPrimitive.int })
        val duplicate = findings.single { it.str("topic") == "duplicate-key" }.str("detail")
        assertTrue(duplicate.contains("the last value wins"), duplicate)
        for (finding in findings) assertTrue(approaches.any { finding.str("detail").contains(it) }, finding.toString())
        // Every approach either runs it, validated against its reading and saying why that departs, or is refused
        // naming the approaches that can.
        val readings = answer.getValue("approaches").jsonObject
        for (approach in approaches) {
            val reading = readings.getValue(approach).jsonObject.str("reading")
            val response = http.get("/run/serde?approach=$approach&document=${answer.str("sha256")}")
            if (reading == "fails") {
                assertEquals(400, response.statusCode(), response.body())
                assertFalse(approach in response.json().getValue("allowed").jsonArray.map { it.jsonPrimitive.content })
            } else {
                assertEquals("departs", reading, approach)
                assertEquals(200, response.statusCode(), response.body())
                val result = response.json()
                assertEquals(true, result.getValue("validated").jsonPrimitive.boolean, result.toString())
                assertEquals("upload-reading", result.str("reference"))
                // The findings that show this approach changing their instance, as the upload named them.
                val topics = result.getValue("findings").jsonArray.map { it.jsonObject.str("topic") }
                assertTrue(topics.isNotEmpty())
                assertEquals(readings.getValue(approach).jsonObject.getValue("findings").jsonArray.map { it.jsonPrimitive.content }, topics)
            }
        }
        assertTrue(readings.values.any { it.jsonObject.str("reading") == "departs" })
    }

    @Test
    fun `cbor (kotlinx) cannot take a document, 400 naming the approaches that can`() {
        val sha256 = put("""{"cbor": 1}""").str("sha256")
        val response = http.get("/run/serde?approach=cbor&document=$sha256")
        assertEquals(400, response.statusCode())
        assertEquals(approaches, response.json().getValue("allowed").jsonArray.map { it.jsonPrimitive.content })
    }

    @Test
    fun `a document as deep as the service takes runs through every approach`() {
        val depth = Config().documents.maxDepth
        val deep = DocumentService(Config(serdeThreads = 1))
        deep.use {
            val text = "{\"a\":".repeat(depth / 2) + "[".repeat(depth - depth / 2) + "1" + "]".repeat(depth - depth / 2) + "}".repeat(depth / 2)
            val answer = it.http.putJson(text).json()
            assertEquals(depth, answer.getValue("depth").jsonPrimitive.int)
            for (approach in approaches) {
                val result = it.http.get("/run/serde?approach=$approach&document=${answer.str("sha256")}")
                assertEquals(200, result.statusCode(), "$approach: ${result.body()}")
                assertEquals(true, result.json().getValue("validated").jsonPrimitive.boolean, approach)
            }
        }
    }
}
