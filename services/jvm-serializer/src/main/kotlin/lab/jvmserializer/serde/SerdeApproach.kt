package lab.jvmserializer.serde

import lab.jvmserializer.payloads.Digest
import lab.jvmserializer.payloads.SpecObject
import lab.jvmserializer.payloads.digestOf

/**
 * One way to turn the objects into a wire form [W] (a String for text formats, bytes for binary ones) and back.
 * Only [serialize] and [deserialize] are timed; [wireBytes] feeds the hash afterwards.
 */
abstract class SerdeApproach<W> {
    abstract fun serialize(objects: List<SpecObject>): W
    abstract fun deserialize(wire: W): List<SpecObject>
    abstract fun wireBytes(wire: W): ByteArray

    fun roundTrip(input: List<SpecObject>): RoundTrip {
        val started = System.nanoTime()
        val wire = serialize(input)
        val serialized = System.nanoTime()
        val decoded = deserialize(wire)
        val deserialized = System.nanoTime()
        // Compared before hashing so the decoded copy (~600 MB at the size cap) is garbage before the hash bytes exist.
        val decodedEqualsInput = decoded == input
        val bytes = wireBytes(wire)
        return RoundTrip(
            digest = digestOf(bytes),
            decodedEqualsInput = decodedEqualsInput,
            serializeNanos = serialized - started,
            deserializeNanos = deserialized - serialized,
        )
    }
}

/** The outcome of one timed round trip: the wire bytes' digest and whether decoding gave the input back. */
data class RoundTrip(
    val digest: Digest,
    val decodedEqualsInput: Boolean,
    val serializeNanos: Long,
    val deserializeNanos: Long,
)
