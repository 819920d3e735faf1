package lab.jvmserializer.serde

import kotlinx.serialization.builtins.ListSerializer
import kotlinx.serialization.json.Json
import lab.jvmserializer.payloads.SpecObject

/**
 * kotlinx.serialization's Json on one thread, the multithreaded-json experiment's baseline: encodeToString,
 * decodeFromString.
 */
class JsonApproach(private val json: Json = Json) : SerdeApproach<String>() {
    override val format = WireFormat.Json
    private val serializer = ListSerializer(SpecObject.serializer())

    override fun serialize(objects: List<SpecObject>): String = json.encodeToString(serializer, objects)
    override fun deserialize(wire: String): List<SpecObject> = json.decodeFromString(serializer, wire)
    override fun wireBytes(wire: String): ByteArray = wire.encodeToByteArray()
}
