package lab.jvmserializer

import kotlinx.serialization.builtins.ListSerializer
import kotlinx.serialization.json.Json
import lab.jvmserializer.payloads.DocumentNames
import lab.jvmserializer.payloads.DocumentVector
import lab.jvmserializer.payloads.Mulberry32
import lab.jvmserializer.payloads.PlainJsonWriter
import lab.jvmserializer.payloads.SpecObject
import lab.jvmserializer.payloads.TRANSFER_CASES
import lab.jvmserializer.payloads.Vectors
import lab.jvmserializer.payloads.digestOf
import lab.jvmserializer.payloads.digestOfText
import lab.jvmserializer.payloads.generateObjects
import lab.jvmserializer.payloads.specDocumentJson
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.DynamicTest.dynamicTest
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestFactory

/** The Kotlin generator against every entry of payloads/vectors.json: byte-identical output is the point. */
class PayloadVectorsTest {
    private val vectors = repoVectors()

    @TestFactory
    fun `prng outputs match`(): List<DynamicTest> = vectors.prng.map { v ->
        dynamicTest("mulberry32 seed ${v.seed}") {
            val prng = Mulberry32(v.seed)
            assertEquals(v.outputs, v.outputs.map { prng.next() })
        }
    }

    @TestFactory
    fun `every document matches its bytes and sha256`(): List<DynamicTest> = vectors.documents.map { v ->
        dynamicTest(label(v)) {
            val text = specDocumentJson(v.document, v.seed, v.size, v.case)
            v.json?.let { assertEquals(it, text, "full text of ${label(v)}") }
            assertEquals(Pair(v.bytes, v.sha256), digestOf(text.encodeToByteArray()).let { it.bytes to it.sha256 })
        }
    }

    @TestFactory
    fun `objects vectors hold for the plain writer and for kotlinx serialization of the data class`(): List<DynamicTest> =
        vectors.documents.filter { it.document == DocumentNames.OBJECTS }.flatMap { v ->
            val objects by lazy { generateObjects(v.seed, v.size!!) }
            listOf(
                dynamicTest("plain writer, ${label(v)}") {
                    val streamed = digestOfText { PlainJsonWriter.writeObjects(objects, it) }
                    assertEquals(Pair(v.bytes, v.sha256), streamed.bytes to streamed.sha256)
                    v.json?.let { assertEquals(it, PlainJsonWriter.objectsToString(objects)) }
                },
                dynamicTest("Json.encodeToString, ${label(v)}") {
                    val text = Json.encodeToString(ListSerializer(SpecObject.serializer()), objects)
                    assertEquals(Pair(v.bytes, v.sha256), digestOf(text.encodeToByteArray()).let { it.bytes to it.sha256 })
                },
            )
        }

    @Test
    fun `the vectors cover every transfer case and the jar carries the same file`() {
        val covered = vectors.documents.filter { it.document == DocumentNames.TRANSFER }.map { it.case }.toSet()
        assertEquals(TRANSFER_CASES.keys, covered)
        assertEquals(vectors, Vectors.fromClasspath())
    }

    private fun label(v: DocumentVector) = "${v.document} seed ${v.seed} " + (v.case ?: "size ${v.size}")
}
