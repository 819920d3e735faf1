package lab.jvmserializer.documents

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonElement
import lab.jvmserializer.memory.MemoryModel
import tools.jackson.core.StreamReadConstraints
import tools.jackson.core.StreamWriteConstraints
import tools.jackson.core.json.JsonFactory
import tools.jackson.databind.JsonNode
import tools.jackson.databind.ObjectMapper
import tools.jackson.databind.json.JsonMapper
import tools.jackson.dataformat.cbor.CBORFactory
import tools.jackson.dataformat.cbor.CBORMapper

/**
 * A serde approach on a user's document as a generic tree [T] (kotlinx's JsonElement, Jackson's JsonNode): the tree
 * is parsed from the stored text before any timing ([parse]); a run times [serialize] (tree -> wire [W]) and
 * [deserialize] (wire -> tree) as the objects runs do; then, untimed, the decoded tree is written as JSON by the
 * approach's own library ([jsonText]), which is what is checked (CBOR has no text to compare, and so both phases
 * count). [library] names the tree the approach shares with others (one parsed input serves them).
 */
abstract class DocumentApproach<T : Any, W : Any>(val library: String) {
    /** What its trees and runs cost (README, "Memory: users' documents"; measured: docs/findings/jvm-serializer.md). */
    abstract val memory: MemoryModel

    abstract fun parse(text: String): T
    abstract fun serialize(tree: T): W
    abstract fun deserialize(wire: W): T
    abstract fun wireBytes(wire: W): ByteArray
    abstract fun jsonText(tree: T): ByteArray

    /**
     * The approach's reading of a document at upload, untimed: its JSON text after one plain round trip. Throws what
     * the library throws on a document it cannot take.
     */
    open fun reading(text: String): ByteArray = jsonText(deserialize(serialize(parse(text))))

    /** What a run's input is made of, untimed: the parsed tree (json-multithreaded: with its largest array apart). */
    open fun prepare(text: String): Any = parse(text)

    /** What a run reports of its input beside its times (json-multithreaded: where it splits the document, or why not). */
    open fun describeInput(input: Any): Map<String, JsonElement> = emptyMap()

    /** Which approaches share one prepared input (the service keeps the last one prepared). */
    open val inputKind: String get() = library

    @Suppress("UNCHECKED_CAST")
    protected open fun serializeInput(input: Any): W = serialize(input as T)

    /** One timed round trip on an input [prepare] made. */
    fun roundTrip(input: Any): DocumentTrip {
        val started = System.nanoTime()
        val wire = serializeInput(input)
        val serialized = System.nanoTime()
        val decoded = deserialize(wire)
        val deserialized = System.nanoTime()
        return DocumentTrip(wireBytes(wire), jsonText(decoded), serialized - started, deserialized - serialized)
    }
}

/** A timed repetition: the wire bytes, the decoded tree's JSON text, each phase's time. */
class DocumentTrip(val wire: ByteArray, val text: ByteArray, val serializeNanos: Long, val deserializeNanos: Long)

/** kotlinx.serialization's Json on a JsonElement: parseToJsonElement's tree, its serializer both ways. */
open class KotlinxTreeApproach(protected val json: Json = Json) : DocumentApproach<JsonElement, String>(KOTLINX) {
    override val memory get() = MODEL

    override fun parse(text: String): JsonElement = json.parseToJsonElement(text)
    override fun serialize(tree: JsonElement): String = json.encodeToString(JsonElement.serializer(), tree)
    override fun deserialize(wire: String): JsonElement = json.parseToJsonElement(wire)
    override fun wireBytes(wire: String): ByteArray = wire.encodeToByteArray()
    override fun jsonText(tree: JsonElement): ByteArray = serialize(tree).encodeToByteArray()

    companion object {
        const val KOTLINX = "kotlinx"

        // JsonObject on a LinkedHashMap, JsonArray on an ArrayList, every number or string a JsonLiteral holding its
        // text as a String; writing goes through a char[] that doubles, then a String, then UTF-8 bytes.
        val MODEL = MemoryModel(treePerNode = 80, treePerKey = 100, treePerTextByte = 2, runPerNode = 30, runPerTextByte = 8)
    }
}

/**
 * Jackson 3's tree (JsonNode) to JSON bytes ([json]) or CBOR bytes ([cbor]: text -> tree -> CBOR -> tree -> text,
 * the text by the JSON mapper). Both mappers take a document as deep and as long as the service does: Jackson's own
 * defaults (500 levels, numbers of 1000 digits) would refuse documents the other approaches take.
 */
class JacksonTreeApproach private constructor(
    private val wireMapper: ObjectMapper,
    private val textMapper: ObjectMapper,
    override val memory: MemoryModel,
) : DocumentApproach<JsonNode, ByteArray>(JACKSON) {
    override fun parse(text: String): JsonNode = textMapper.readTree(text)
    override fun serialize(tree: JsonNode): ByteArray = wireMapper.writeValueAsBytes(tree)
    override fun deserialize(wire: ByteArray): JsonNode = wireMapper.readTree(wire)
    override fun wireBytes(wire: ByteArray): ByteArray = wire
    override fun jsonText(tree: JsonNode): ByteArray = textMapper.writeValueAsBytes(tree)

    companion object {
        const val JACKSON = "jackson"

        private fun reads(settingsMaxDepth: Int, maxBytes: Int) = StreamReadConstraints.builder()
            .maxNestingDepth(settingsMaxDepth).maxStringLength(maxBytes).maxNumberLength(maxBytes).maxNameLength(maxBytes).build()

        private fun writes(maxDepth: Int) = StreamWriteConstraints.builder().maxNestingDepth(maxDepth).build()

        private fun jsonMapper(maxDepth: Int, maxBytes: Int): ObjectMapper = JsonMapper.builder(
            JsonFactory.builder().streamReadConstraints(reads(maxDepth, maxBytes)).streamWriteConstraints(writes(maxDepth)).build(),
        ).build()

        // ObjectNode on a LinkedHashMap made even when empty, ArrayNode on an ArrayList, small ints and "" shared;
        // writing goes through Jackson's segmented byte buffer and one copy out of it.
        val JSON_MODEL = MemoryModel(treePerNode = 88, treePerKey = 100, treePerTextByte = 2, runPerNode = 10, runPerTextByte = 6)

        // The same tree, and CBOR bytes (never longer than the JSON here) before the tree is written as JSON.
        val CBOR_MODEL = MemoryModel(treePerNode = 88, treePerKey = 100, treePerTextByte = 2, runPerNode = 10, runPerTextByte = 9)

        fun json(maxDepth: Int, maxBytes: Int): JacksonTreeApproach = jsonMapper(maxDepth, maxBytes).let { JacksonTreeApproach(it, it, JSON_MODEL) }

        fun cbor(maxDepth: Int, maxBytes: Int) = JacksonTreeApproach(
            CBORMapper.builder(
                CBORFactory.builder().streamReadConstraints(reads(maxDepth, maxBytes)).streamWriteConstraints(writes(maxDepth)).build(),
            ).build(),
            jsonMapper(maxDepth, maxBytes),
            CBOR_MODEL,
        )
    }
}
