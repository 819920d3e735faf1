package lab.jvmserializer

import lab.jvmserializer.payloads.CborDialect
import lab.jvmserializer.payloads.PlainCborWriter
import lab.jvmserializer.payloads.SpecObject
import lab.jvmserializer.serde.CborApproach
import lab.jvmserializer.serde.JacksonApproach
import lab.jvmserializer.serde.SerdeApproach
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import java.io.ByteArrayOutputStream

/**
 * The CBOR reference against both libraries on the values where encoders may differ: every integer width and sign,
 * string lengths around the header widths, non-ASCII text, array lengths around 23/24/255/256. This is what the
 * README's "CBOR encodings" says about them, checked.
 */
class PlainCborWriterTest {
    private val numbers = listOf(0, 1, 23, 24, 255, 256, 65535, 65536, Int.MAX_VALUE, -1, -24, -25, -256, -257, -65537, Int.MIN_VALUE)
    private val strings = listOf("", "a", "x".repeat(23), "x".repeat(24), "x".repeat(255), "x".repeat(256), "é", "中文", "😀", "\"\\\n")

    private val objects: List<SpecObject> =
        numbers.mapIndexed { i, n -> SpecObject(strings[i % strings.size], n, List(listOf(0, 1, 23, 24, 255, 256)[i % 6]) { strings[(it + i) % strings.size] }) }

    private fun plain(objects: List<SpecObject>, dialect: CborDialect): ByteArray =
        ByteArrayOutputStream().also { PlainCborWriter(it, dialect).writeObjects(objects) }.toByteArray()

    @Suppress("UNCHECKED_CAST")
    private fun bytes(approach: SerdeApproach<*>, objects: List<SpecObject>): ByteArray =
        (approach as SerdeApproach<Any?>).let { it.wireBytes(it.serialize(objects)) }

    @Test
    fun `kotlinx cbor writes the kotlinx dialect`() {
        for (list in listOf(objects, emptyList(), objects.take(1), List(300) { objects[it % objects.size] })) {
            assertArrayEquals(plain(list, CborDialect.KOTLINX), bytes(CborApproach(), list), "${list.size} objects")
        }
    }

    @Test
    fun `jackson cbor writes the jackson dialect`() {
        for (list in listOf(objects, emptyList(), objects.take(1), List(300) { objects[it % objects.size] })) {
            assertArrayEquals(plain(list, CborDialect.JACKSON), bytes(JacksonApproach.jacksonCbor(), list), "${list.size} objects")
        }
    }

    @Test
    fun `the dialects differ only in how containers are framed`() {
        val one = listOf(SpecObject("ab", 24, listOf("c")))
        // [ {"name":"ab","number":24,"strings":["c"]} ]
        val body = byteArrayOf(0x64) + "name".toByteArray() + byteArrayOf(0x62) + "ab".toByteArray() +
            byteArrayOf(0x66) + "number".toByteArray() + byteArrayOf(0x18, 24) + byteArrayOf(0x67) + "strings".toByteArray()
        val kotlinx = byteArrayOf(0x9f.toByte(), 0xbf.toByte()) + body + byteArrayOf(0x9f.toByte(), 0x61, 'c'.code.toByte()) +
            byteArrayOf(0xff.toByte(), 0xff.toByte(), 0xff.toByte())
        val jackson = byteArrayOf(0x81.toByte(), 0xbf.toByte()) + body + byteArrayOf(0x81.toByte(), 0x61, 'c'.code.toByte()) +
            byteArrayOf(0xff.toByte())
        assertArrayEquals(kotlinx, bytes(CborApproach(), one))
        assertArrayEquals(jackson, bytes(JacksonApproach.jacksonCbor(), one))
    }

    @Test
    fun `each library decodes the other's bytes`() {
        val kotlinx = CborApproach()
        val jackson = JacksonApproach.jacksonCbor()
        assertEquals(objects, kotlinx.deserialize(jackson.serialize(objects)))
        assertEquals(objects, jackson.deserialize(kotlinx.serialize(objects)))
    }
}
