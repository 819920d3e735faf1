package lab.jvmserializer

import lab.jvmserializer.payloads.CborDialect
import lab.jvmserializer.payloads.PlainCborWriter
import lab.jvmserializer.payloads.digestOfStream
import lab.jvmserializer.payloads.generateObjects
import lab.jvmserializer.payloads.sha256Hex
import lab.jvmserializer.serde.CborApproach
import lab.jvmserializer.serde.JacksonApproach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource

/**
 * The CBOR bytes pinned per library (no shared vector can pin them: the libraries frame containers differently, see
 * PlainCborWriterTest), on the seeds and sizes vectors.json pins for JSON. A library upgrade that changes its bytes
 * fails here first; the plain CBOR writer, the service's run-time reference, must give the same hashes.
 */
class CborHashesTest {
    @ParameterizedTest(name = "{0} seed {1} size {2}")
    @CsvSource(
        "kotlinx, 1, 1,     1137,     336b07d3b807b7448726d5032dcbf4a092c06ed60c246201c4a8c2de0b100ed0",
        "kotlinx, 2, 1000,  1135002,  c4082be921f4ec7a61b90ee63f23fca237caefa3f5034e37be2fe8063ffd3932",
        "jackson, 1, 1,     1136,     a79473951606325716d92987a6faebc14610c5fbede4eb1bb7898d1ed494ce98",
        "jackson, 2, 1000,  1135003,  0a12202e3754920641b309fa38efb6f20a9f799712c78a72b1f76457d0b926cd",
    )
    fun `cbor bytes are pinned per library`(library: String, seed: Int, size: Int, bytes: Long, sha256: String) {
        val objects = generateObjects(seed, size)
        val wire = if (library == "kotlinx") CborApproach().serialize(objects) else JacksonApproach.jacksonCbor().serialize(objects)
        assertEquals(bytes to sha256, wire.size.toLong() to sha256Hex(wire))
        val dialect = if (library == "kotlinx") CborDialect.KOTLINX else CborDialect.JACKSON
        val reference = digestOfStream { PlainCborWriter(it, dialect).writeObjects(objects) }
        assertEquals(bytes to sha256, reference.bytes to reference.sha256)
    }
}
