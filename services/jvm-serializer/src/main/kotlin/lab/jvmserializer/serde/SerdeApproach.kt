package lab.jvmserializer.serde

import lab.jvmserializer.payloads.CborDialect
import lab.jvmserializer.payloads.SpecObject
import lab.jvmserializer.payloads.digestOf

/**
 * One way to turn the objects into a wire form [W] (a String for kotlinx's JSON, bytes for Jackson and CBOR: each
 * library's own fastest form) and back. Only [serialize] and [deserialize] are timed; [wireBytes] feeds the hash
 * afterwards, which must equal the reference of [format].
 */
abstract class SerdeApproach<W> {
    abstract val format: WireFormat
    abstract fun serialize(objects: List<SpecObject>): W
    abstract fun deserialize(wire: W): List<SpecObject>
    abstract fun wireBytes(wire: W): ByteArray

    /** One repetition: both phases timed apart, then checked (untimed) against the input and [referenceSha256]. */
    fun roundTrip(input: List<SpecObject>, referenceSha256: String): RoundTrip {
        val started = System.nanoTime()
        val wire = serialize(input)
        val serialized = System.nanoTime()
        val decoded = deserialize(wire)
        val deserialized = System.nanoTime()
        // Compared before hashing so the decoded copy (~600 MB at the size cap) is garbage before the hash bytes exist.
        val decodedEqualsInput = decoded == input
        val digest = digestOf(wireBytes(wire))
        return RoundTrip(
            bytes = digest.bytes,
            sha256 = digest.sha256,
            validated = decodedEqualsInput && digest.sha256 == referenceSha256,
            serializeNanos = serialized - started,
            deserializeNanos = deserialized - serialized,
        )
    }
}

/** What an approach's bytes are checked against: the JSON references, or a CBOR dialect's plain writer. */
sealed class WireFormat {
    object Json : WireFormat()
    data class Cbor(val dialect: CborDialect) : WireFormat()
}

/** One timed repetition: the wire bytes' length and sha256, whether they and the decoded list were right, the times. */
data class RoundTrip(
    val bytes: Long,
    val sha256: String,
    val validated: Boolean,
    val serializeNanos: Long,
    val deserializeNanos: Long,
)
