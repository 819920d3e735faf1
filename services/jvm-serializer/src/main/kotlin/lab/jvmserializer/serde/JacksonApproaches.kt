package lab.jvmserializer.serde

import com.fasterxml.jackson.annotation.JsonCreator
import com.fasterxml.jackson.annotation.JsonProperty
import com.fasterxml.jackson.annotation.JsonPropertyOrder
import lab.jvmserializer.payloads.CborDialect
import lab.jvmserializer.payloads.SpecObject
import tools.jackson.databind.ObjectMapper
import tools.jackson.databind.ObjectReader
import tools.jackson.databind.ObjectWriter
import tools.jackson.databind.json.JsonMapper
import tools.jackson.dataformat.cbor.CBORMapper

/**
 * Jackson 3 databind on the same data class, to JSON ([jackson]) and to CBOR ([jacksonCbor]), each to and from bytes
 * (Jackson's fastest path: it writes and reads UTF-8 itself). Plain databind with a mix-in instead of the Kotlin
 * module: the mix-in names the constructor and the property order once, so there is no kotlin-reflect on the class
 * path and no per-object Kotlin value-instantiator checks; SpecObject itself stays free of Jackson.
 */
class JacksonApproach private constructor(mapper: ObjectMapper, override val format: WireFormat) : SerdeApproach<ByteArray>() {
    private val writer: ObjectWriter
    private val reader: ObjectReader

    init {
        val type = mapper.typeFactory.constructCollectionType(List::class.java, SpecObject::class.java)
        writer = mapper.writerFor(type)
        reader = mapper.readerFor(type)
    }

    override fun serialize(objects: List<SpecObject>): ByteArray = writer.writeValueAsBytes(objects)
    override fun deserialize(wire: ByteArray): List<SpecObject> = reader.readValue(wire)
    override fun wireBytes(wire: ByteArray): ByteArray = wire

    companion object {
        fun jackson() = JacksonApproach(JsonMapper.builder().addMixIn(SpecObject::class.java, SpecObjectMixin::class.java).build(), WireFormat.Json)

        /** Jackson writes collections with a definite length and beans as indefinite maps (README, "CBOR encodings"). */
        fun jacksonCbor() = JacksonApproach(
            CBORMapper.builder().addMixIn(SpecObject::class.java, SpecObjectMixin::class.java).build(),
            WireFormat.Cbor(CborDialect.JACKSON),
        )
    }
}

/** Jackson's view of [SpecObject]: the constructor to decode with, and the spec's key order (also kotlinx's). */
@JsonPropertyOrder("name", "number", "strings")
internal abstract class SpecObjectMixin @JsonCreator constructor(
    @param:JsonProperty("name") name: String,
    @param:JsonProperty("number") number: Int,
    @param:JsonProperty("strings") strings: List<String>,
)
