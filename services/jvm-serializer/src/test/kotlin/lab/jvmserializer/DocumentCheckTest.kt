package lab.jvmserializer

import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import lab.jvmserializer.documents.DocumentApproach
import lab.jvmserializer.documents.DocumentCheck
import lab.jvmserializer.documents.DocumentRuns
import lab.jvmserializer.documents.DocumentStore
import lab.jvmserializer.documents.JsonScan
import lab.jvmserializer.documents.KotlinxTreeApproach
import lab.jvmserializer.documents.UserDocument
import lab.jvmserializer.payloads.sha256Hex
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import lab.jvmserializer.memory.DocumentShape
import lab.jvmserializer.memory.MemoryBudget

/**
 * A finding explains only the departures of the approaches it shows changing its instance: an approach that breaks
 * something else (here one that upper-cases its text) fails, even on a document with findings.
 */
class DocumentCheckTest {
    /** Deliberately wrong: kotlinx's text, upper-cased, which leaves a number alone and changes every letter. */
    private class Shouting : KotlinxTreeApproach() {
        override fun jsonText(tree: JsonElement): ByteArray = super.jsonText(tree).decodeToString().uppercase().encodeToByteArray()
    }

    private val approaches: Map<String, DocumentApproach<*, *>> = linkedMapOf("json" to KotlinxTreeApproach(), "shouting" to Shouting())

    private fun check(text: String): DocumentCheck {
        val (scan, digest) = JsonScan.of(text, 10)
        return DocumentCheck.of(text, scan, DocumentShape(scan.nodes, scan.keys, text.length.toLong()), digest.sha256, approaches)
    }

    private fun reading(check: DocumentCheck, approach: String) = check.describeReadings().getValue(approach).jsonObject.getValue("reading").jsonPrimitive.content

    @Test
    fun `a departure no finding shows is unexplained, and the approach's runs fail`() {
        // 2^53 + 1: a large-integer finding that kotlinx writes as it stands, so it explains nothing here.
        val text = """{"id": 9007199254740993, "s": "a"}"""
        val check = check(text)
        assertEquals(listOf("large-integer"), check.findings.map { it.topic })
        assertEquals("same", reading(check, "json"))
        assertEquals("departs without a finding: its runs fail", reading(check, "shouting"))
        val store = DocumentStore(2, 1000)
        val sha256 = sha256Hex(text.encodeToByteArray())
        store.add(UserDocument(sha256, text.length, text, check))
        val runs = DocumentRuns(store, approaches, MemoryBudget(64L shl 20))
        assertEquals(true, runs.run("json", sha256, 1).validated)
        assertEquals(false, runs.run("shouting", sha256, 1).validated)
    }

    @Test
    fun `a departure a finding shows is explained by that finding alone`() {
        val check = check("""{"z": -0, "id": 9007199254740993}""")
        assertEquals(listOf("large-integer", "negative-zero"), check.findings.map { it.topic })
        assertEquals("departs", reading(check, "json"))
        assertEquals(listOf("negative-zero"), check.findingsOf("json").map { it.topic })
    }

    @Test
    fun `every instance of a topic is probed, not only the first`() {
        // kotlinx keeps the first (it fits a Long) and rewrites the second as a double: the finding explains json's
        // reading only if the second instance is run too.
        val check = check("[9007199254740993, 123456789012345678901234567890]")
        assertEquals("departs", reading(check, "json"))
        assertEquals(listOf("large-integer"), check.findingsOf("json").map { it.topic })
        val detail = check.findings.single().detail
        assertTrue(detail.contains("for 123456789012345678901234567890"), detail)
        // -0.0 kept by kotlinx (a Double), then -0 rewritten as 0 (a Long).
        val zeros = check("[-0.0, -0]")
        assertEquals("departs", reading(zeros, "json"))
        assertEquals(listOf("negative-zero"), zeros.findingsOf("json").map { it.topic })
    }

    @Test
    fun `a number spelled otherwise with its value kept is no departure`() {
        // Node's number-format finding: kotlinx writes 1.0E-7 and 1.0, the same doubles, and departs nothing.
        val check = check("""{"a": [1e-7, 1.0], "b": 9007199254740993}""")
        assertEquals(listOf("large-integer", "number-format"), check.findings.map { it.topic })
        assertEquals("same", reading(check, "json"))
    }
}
