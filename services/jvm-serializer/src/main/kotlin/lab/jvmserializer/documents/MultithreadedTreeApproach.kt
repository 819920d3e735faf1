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
import java.util.UUID

/**
 * `json-multithreaded` on a user's document: kotlinx's JsonElement, with the document's largest array (most elements)
 * split across the shared [SerdePool] as the objects approach splits its one array. Its text is `json`'s exactly
 * (the same serializer writes every element and the rest), so its runs are checked against `json`'s reading.
 *
 * Serialize: the rest of the document is encoded with the array replaced by a placeholder string, the array's
 * elements in chunks on the pool, and the chunks joined into the placeholder's place. Deserialize: one string-aware
 * scan finds the largest array's text and cuts it at top-level commas ([JsonArrayBoundaries]), the chunks are parsed
 * as `[chunk]` on the pool, the rest (the array's text replaced by the placeholder) is parsed on the run's thread, and
 * the elements are put in the placeholder's place. The placeholder is a random name checked not to occur in the text.
 * Below [parallelMinChars] of text, or without an array of two elements, it is `json` on one thread.
 */
class MultithreadedTreeApproach(
    private val pool: SerdePool,
    parallelMinObjects: Int,
    json: Json = Json,
) : KotlinxTreeApproach(json) {
    private val parallelMinChars = parallelMinObjects.toLong() * MultithreadedJsonApproach.SPEC_OBJECT_CHARS
    private val single = KotlinxTreeApproach(json)

    /** A parsed document with its largest array taken out (untimed: [parse] prepares it). */
    class Split(val tree: JsonElement, val rest: JsonElement?, val elements: List<JsonElement>, val placeholder: String)

    // kotlinx's tree, kept with its largest array apart (measured 95 bytes a value on [{},{},…], where json's is 79),
    // and per element of that array a String of its text while it is serialized, the chunks' bracketed copies while
    // they are decoded.
    override val memory get() = MODEL

    /** The reading json-multithreaded must give: json's (kotlinx on one thread). */
    override fun reading(text: String): ByteArray = single.reading(text)

    override val inputKind = "kotlinx-split"
    override fun prepare(text: String): Any = parseSplit(text)
    override fun serializeInput(input: Any): String = serializeSplit(input as Split)

    fun parseSplit(text: String): Split {
        val tree = json.parseToJsonElement(text)
        val placeholder = placeholderFor(text)
        val largest = largestArray(tree)
        if (text.length < parallelMinChars || largest == null || largest.size < 2) return Split(tree, null, emptyList(), placeholder)
        return Split(tree, replace(tree, largest, JsonPrimitive(placeholder)), largest, placeholder)
    }

    fun serializeSplit(split: Split): String {
        val rest = split.rest ?: return serialize(split.tree)
        val batch = pool.batch()
        val chunks = minOf(pool.threads * MultithreadedJsonApproach.CHUNKS_PER_THREAD, split.elements.size)
        for (c in 0 until chunks) {
            val from = (split.elements.size.toLong() * c / chunks).toInt()
            val to = (split.elements.size.toLong() * (c + 1) / chunks).toInt()
            batch.submit { Array(to - from) { k -> serialize(split.elements[from + k]) } }
        }
        val outside = serialize(rest)
        val parts = batch.awaitAll<Array<String>>()
        val quoted = "\"${split.placeholder}\""
        val at = outside.indexOf(quoted)
        val out = StringBuilder(outside.length + parts.sumOf { p -> p.sumOf { it.length + 1 } } + 2)
        out.append(outside, 0, at).append('[')
        var first = true
        for (part in parts) for (element in part) {
            if (!first) out.append(',')
            out.append(element)
            first = false
        }
        return out.append(']').append(outside, at + quoted.length, outside.length).toString()
    }

    override fun deserialize(wire: String): JsonElement {
        if (wire.length < parallelMinChars) return json.parseToJsonElement(wire)
        val span = largestArraySpan(wire) ?: return json.parseToJsonElement(wire)
        val placeholder = placeholderFor(wire)
        val batch = pool.batch()
        val minChars = maxOf(1, (span.last - span.first) / (pool.threads * MultithreadedJsonApproach.CHUNKS_PER_THREAD))
        try {
            JsonArrayBoundaries.splitFrom(wire, span.first + 1, minChars, span.last + 1) { s, e ->
                batch.submit { (json.parseToJsonElement(StringBuilder(e - s + 2).append('[').append(wire, s, e).append(']').toString()) as JsonArray).toList() }
            }
        } catch (e: Throwable) {
            batch.cancel()
            throw e
        }
        val rest = json.parseToJsonElement(StringBuilder(wire.length - (span.last - span.first) + placeholder.length + 2)
            .append(wire, 0, span.first).append('"').append(placeholder).append('"').append(wire, span.last + 1, wire.length).toString())
        val elements = batch.awaitAll<List<JsonElement>>().flatten()
        return put(rest, JsonPrimitive(placeholder), JsonArray(elements))
    }

    private fun placeholderFor(text: String): String {
        while (true) {
            val name = "lab-split-${UUID.randomUUID()}"
            if (!text.contains(name)) return name
        }
    }

    companion object {
        /** The array with the most elements (the first of equals, depth first), or null; iterative. */
        fun largestArray(tree: JsonElement): JsonArray? {
            var best: JsonArray? = null
            val stack = ArrayDeque<JsonElement>().apply { add(tree) }
            while (stack.isNotEmpty()) {
                when (val e = stack.removeLast()) {
                    is JsonArray -> {
                        if (best == null || e.size > best.size) best = e
                        for (k in e.indices.reversed()) stack.add(e[k])
                    }
                    is JsonObject -> e.values.reversed().forEach(stack::add)
                    else -> {}
                }
            }
            return best
        }

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

        /**
         * The first and last index (its brackets) of the array with the most top-level elements in a JSON text, by one
         * string-aware scan; null when none has two.
         */
        fun largestArraySpan(text: String): IntRange? {
            val starts = IntArray(MAX_TRACKED_DEPTH)
            val counts = IntArray(MAX_TRACKED_DEPTH)
            val isArray = BooleanArray(MAX_TRACKED_DEPTH)
            var depth = 0
            var best: IntRange? = null
            var bestCount = 1
            var i = 0
            while (i < text.length) {
                when (text[i]) {
                    '"' -> {
                        i++
                        while (text[i] != '"') i += if (text[i] == '\\') 2 else 1
                    }
                    '[', '{' -> {
                        if (depth < MAX_TRACKED_DEPTH) {
                            starts[depth] = i
                            counts[depth] = 1
                            isArray[depth] = text[i] == '['
                        }
                        depth++
                    }
                    ']', '}' -> {
                        depth--
                        if (depth < MAX_TRACKED_DEPTH && isArray[depth] && counts[depth] > bestCount && text[starts[depth] + 1] != ']') {
                            bestCount = counts[depth]
                            best = starts[depth]..i
                        }
                    }
                    ',' -> if (depth - 1 < MAX_TRACKED_DEPTH) counts[depth - 1]++
                }
                i++
            }
            return best
        }

        val MODEL = MemoryModel(treePerNode = 96, treePerKey = 100, treePerTextByte = 2, runPerNode = 40, runPerTextByte = 10)

        /** Arrays nested deeper than this are never split (a document's large arrays are near its top). */
        private const val MAX_TRACKED_DEPTH = 64
    }
}
