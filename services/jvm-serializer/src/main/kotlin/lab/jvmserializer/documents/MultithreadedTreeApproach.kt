package lab.jvmserializer.documents

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import lab.jvmserializer.memory.MemoryModel
import lab.jvmserializer.serde.JsonArrayBoundaries
import lab.jvmserializer.serde.MultithreadedJsonApproach
import lab.jvmserializer.serde.SerdePool
import java.util.StringJoiner
import java.util.UUID

/**
 * `json-multithreaded` on a user's document: kotlinx's JsonElement, with the document's bulk split across the shared
 * [SerdePool] as the objects approach splits its one array. The bulk is where the text is ([JsonBulk]): the array or
 * object whose members let chunks share the most of it; below [SplitChoice.MIN_SHARE] of the text, below
 * [parallelMinChars], or without a container of two members, it declines and is `json` on one thread
 * ([SplitChoice]). Its text is `json`'s exactly (the same serializer writes every member and the rest), so its runs
 * are checked against `json`'s reading.
 *
 * Serialize: the rest of the document is encoded with the bulk replaced by a placeholder string; the bulk's members in
 * chunks on the pool, each chunk encoded as a container of its members (`[…]` or `{…}`) whose brackets are dropped;
 * the chunks joined by commas (one StringJoiner) into the placeholder's place. Deserialize: one string-aware scan
 * finds the bulk in the wire and cuts it at top-level commas as it goes (a comma outside strings separates an
 * object's members, key and value, as it does an array's elements); the chunks are parsed as `[chunk]` or `{chunk}`
 * on the pool, the rest (the bulk's text replaced by the placeholder) on the run's thread, and the members put in the
 * placeholder's place in order. An object's members go into one LinkedHashMap chunk after chunk, as kotlinx's parser puts them into its own:
 * a repeated key keeps its first place and its last value either way, within a chunk or across two. The placeholder
 * is a random name checked not to occur in the rest's text; a repeated key outside the bulk can drop it as kotlinx
 * drops the value it stands for, and the rest is then the answer as it stands.
 */
class MultithreadedTreeApproach(
    private val pool: SerdePool,
    parallelMinObjects: Int,
    json: Json = Json,
) : KotlinxTreeApproach(json) {
    private val parallelMinChars = parallelMinObjects.toLong() * MultithreadedJsonApproach.SPEC_OBJECT_CHARS
    private val single = KotlinxTreeApproach(json)
    private val maxChunks get() = pool.threads * MultithreadedJsonApproach.CHUNKS_PER_THREAD

    /**
     * A parsed document with its bulk taken out (untimed: [prepare] makes it): [rest] holds the placeholder where
     * [bulk] was, [entries] an object bulk's members by index; [choice] and [pointer] what the run reports.
     */
    class Split(
        val tree: JsonElement,
        val choice: SplitChoice,
        val pointer: String?,
        val rest: JsonElement?,
        val bulk: JsonElement?,
        val entries: List<Map.Entry<String, JsonElement>>,
        val placeholder: String,
    )

    // kotlinx's tree, kept with its bulk apart (measured 95 bytes a value on [{},{},…], where json's is 79), and per
    // chunk a String of its text while it is serialized, the chunks' bracketed copies while they are decoded.
    override val memory get() = MODEL

    /** The reading json-multithreaded must give: json's (kotlinx on one thread). */
    override fun reading(text: String): ByteArray = single.reading(text)

    override val inputKind = "kotlinx-split"
    override fun prepare(text: String): Any = parseSplit(text)
    override fun serializeInput(input: Any): String = serializeSplit(input as Split)
    override fun describeInput(input: Any) = (input as Split).let { mapOf("split" to it.choice.toJson(it.pointer)) }

    /**
     * The tree and its split, chosen on json's text of it: the wire every deserialization of the run reads, so both
     * phases split the same container (a document's own spacing would weigh otherwise).
     */
    fun parseSplit(text: String): Split {
        val tree = json.parseToJsonElement(text)
        val wire = serialize(tree)
        val placeholder = placeholderFor(wire)
        val choice = SplitChoice.of(wire, parallelMinChars, maxChunks)
        val pointer = choice.considered?.let { JsonBulk.pointer(JsonBulk.pathTo(wire, it.open)) }
        val found = choice.bulk ?: return Split(tree, choice, pointer, null, null, emptyList(), placeholder)
        val bulk = JsonBulk.pathTo(wire, found.open).fold(tree) { node, step ->
            when (step) {
                is PathStep.Index -> (node as JsonArray)[step.index]
                is PathStep.Key -> (node as JsonObject).getValue(step.name)
            }
        }
        val entries = if (bulk is JsonObject) ArrayList(bulk.entries) else emptyList()
        return Split(tree, choice, pointer, replace(tree, bulk, JsonPrimitive(placeholder)), bulk, entries, placeholder)
    }

    fun serializeSplit(split: Split): String {
        val rest = split.rest ?: return serialize(split.tree)
        val bulk = split.bulk!!
        val members = if (bulk is JsonObject) split.entries.size else (bulk as JsonArray).size
        val chunks = split.choice.chunks
        val batch = pool.batch()
        for (c in 0 until chunks) {
            val from = (members.toLong() * c / chunks).toInt()
            val to = (members.toLong() * (c + 1) / chunks).toInt()
            batch.submit {
                val encoded = serialize(if (bulk is JsonObject) objectOf(split.entries, from, to) else JsonArray((bulk as JsonArray).subList(from, to)))
                encoded.substring(1, encoded.length - 1) // its members alone, cut here so the copy runs on the pool
            }
        }
        val outside = serialize(rest)
        val parts = batch.awaitAll<String>()
        val quoted = "\"${split.placeholder}\""
        val at = outside.indexOf(quoted)
        val (open, close) = if (bulk is JsonObject) "{" to "}" else "[" to "]"
        // StringJoiner (JDK 17+) sizes the result first and copies each part once.
        val joined = StringJoiner(",", outside.substring(0, at) + open, close + outside.substring(at + quoted.length))
        for (part in parts) joined.add(part)
        return joined.toString()
    }

    override fun deserialize(wire: String): JsonElement {
        val bulk = SplitChoice.of(wire, parallelMinChars, maxChunks).bulk ?: return json.parseToJsonElement(wire)
        val starts = IntArray(bulk.chunks) { k -> if (k == 0) bulk.open + 1 else bulk.cuts[k - 1] + 1 }
        val ends = IntArray(bulk.chunks) { k -> if (k < bulk.cuts.size) bulk.cuts[k] else bulk.close }
        // A blank chunk is a comma too many (`[1,,2]`, `{"a":1,}`), which a chunk's parser would not see: json refuses it.
        if ((0 until bulk.chunks).any { isBlank(wire, starts[it], ends[it]) }) return json.parseToJsonElement(wire)
        val placeholder = placeholderOutside(wire, bulk)
        val (open, close) = if (bulk.isObject) '{' to '}' else '[' to ']'
        val batch = pool.batch()
        for (k in 0 until bulk.chunks) {
            batch.submit { json.parseToJsonElement(StringBuilder(ends[k] - starts[k] + 2).append(open).append(wire, starts[k], ends[k]).append(close).toString()) }
        }
        val rest = try {
            json.parseToJsonElement(StringBuilder(wire.length - (bulk.close - bulk.open) + placeholder.length + 2)
                .append(wire, 0, bulk.open).append('"').append(placeholder).append('"').append(wire, bulk.close + 1, wire.length).toString())
        } catch (e: Throwable) {
            batch.cancel()
            throw e
        }
        val chunks = batch.awaitAll<JsonElement>()
        val whole = if (bulk.isObject) {
            val members = LinkedHashMap<String, JsonElement>()
            for (chunk in chunks) members.putAll(chunk as JsonObject)
            JsonObject(members)
        } else {
            JsonArray(chunks.flatMap { it as JsonArray })
        }
        return put(rest, JsonPrimitive(placeholder), whole)
    }

    private fun isBlank(text: String, start: Int, end: Int): Boolean {
        for (i in start until end) if (!JsonArrayBoundaries.isWhitespace(text[i])) return false
        return true
    }

    /** A placeholder that occurs nowhere in [wire] outside [bulk] (the chunks are parsed apart: their text cannot hold it). */
    private fun placeholderOutside(wire: String, bulk: Bulk): String {
        while (true) {
            val name = "lab-split-${UUID.randomUUID()}"
            if (wire.lastIndexOf(name, bulk.open) < 0 && wire.indexOf(name, bulk.close) < 0) return name
        }
    }

    private fun objectOf(entries: List<Map.Entry<String, JsonElement>>, from: Int, to: Int): JsonObject {
        val members = LinkedHashMap<String, JsonElement>((to - from) * 4 / 3 + 1)
        for (k in from until to) members[entries[k].key] = entries[k].value
        return JsonObject(members)
    }

    private fun placeholderFor(text: String): String {
        while (true) {
            val name = "lab-split-${UUID.randomUUID()}"
            if (!text.contains(name)) return name
        }
    }

    companion object {
        /** [tree] with the one node identical (===) to [target] replaced by [by]. */
        fun replace(tree: JsonElement, target: JsonElement, by: JsonElement): JsonElement = when {
            tree === target -> by
            tree is JsonArray -> JsonArray(tree.map { replace(it, target, by) })
            tree is JsonObject -> JsonObject(tree.mapValuesTo(LinkedHashMap()) { replace(it.value, target, by) })
            else -> tree
        }

        /** [tree] with the first node equal to [placeholder] (a string no document holds) replaced by [by]. */
        fun put(tree: JsonElement, placeholder: JsonPrimitive, by: JsonElement): JsonElement {
            var done = false
            fun walk(e: JsonElement): JsonElement = when {
                done -> e
                e is JsonPrimitive && e.isString && e == placeholder -> by.also { done = true }
                e is JsonArray -> JsonArray(e.map(::walk))
                e is JsonObject -> JsonObject(e.mapValuesTo(LinkedHashMap()) { walk(it.value) })
                else -> e
            }
            return walk(tree)
        }

        val MODEL = MemoryModel(treePerNode = 96, treePerKey = 100, treePerTextByte = 2, runPerNode = 40, runPerTextByte = 10)
    }
}
