package lab.jvmserializer.serde

import kotlinx.serialization.builtins.ListSerializer
import kotlinx.serialization.cbor.Cbor
import lab.jvmserializer.payloads.CborDialect
import lab.jvmserializer.payloads.SpecObject

/**
 * kotlinx.serialization's Cbor (the multithreaded-json experiment's third contender) with its defaults: arrays and maps
 * of indefinite length (README, "CBOR encodings"), so its bytes are checked against the plain CBOR writer in that
 * dialect.
 */
class CborApproach(private val cbor: Cbor = Cbor) : SerdeApproach<ByteArray>() {
    private val serializer = ListSerializer(SpecObject.serializer())

    override val format = WireFormat.Cbor(CborDialect.KOTLINX)
    override fun serialize(objects: List<SpecObject>): ByteArray = cbor.encodeToByteArray(serializer, objects)
    override fun deserialize(wire: ByteArray): List<SpecObject> = cbor.decodeFromByteArray(serializer, wire)
    override fun wireBytes(wire: ByteArray): ByteArray = wire
}
