package lab.jvmserializer.serde

import kotlinx.serialization.builtins.ListSerializer
import kotlinx.serialization.json.Json
import lab.jvmserializer.payloads.SpecObject
import java.util.StringJoiner
import java.util.concurrent.atomic.AtomicLong

/**
 * The multithreaded-json experiment's Json, done so that it pays: the same kotlinx `Json` as [JsonApproach], the same
 * wire (one String holding one JSON array, character for character json's), cut into chunks that run on the shared
 * [SerdePool], the calling thread working on them too ([ChunkBatch]). Below [parallelMinObjects] objects (or that many
 * objects' worth of text) it is `json` on one thread: there a hand-off to another thread costs more than it saves.
 *
 * Serialize: each chunk encodes its objects one by one (kotlinx's writer takes its buffer from a pool, so a call
 * costs little, and no chunk-sized buffer doubles its way up); the caller joins every element with one StringJoiner,
 * which (JDK 17+) sizes the result first and copies each element once.
 *
 * Deserialize: cut at guessed element boundaries ([SeparatorGuesses]: no scan of the text), decode every chunk as
 * `[` + its text + `]` in parallel, and let the decoding check the cuts: chunk 0 starts right after the array's `[`,
 * so it starts where an element does; a strict parser that starts where an element does and accepts the chunk
 * followed by `]` as a whole array has seen the cut at a top-level comma (inside a string the `]` would be string
 * content; deeper in the nesting it would leave a container open), so the next chunk starts where an element does,
 * and so on. The first chunk that fails to decode marks the first bad cut (or a broken document): from its start,
 * which the chunk before it has proven, [JsonArrayBoundaries] scans for the true boundaries, and those chunks are
 * decoded instead; chunks after a bad cut are dropped. So the scan, a fifth of the decoding time here, is paid only
 * when a guess was wrong.
 *
 * Why a String and not bytes: kotlinx's stream encoder and decoder were 19 % and 18 % slower than its String ones on
 * this shape (README), more than the copies a String costs (one per element, one per chunk).
 */
class MultithreadedJsonApproach(
    private val pool: SerdePool,
    private val parallelMinObjects: Int,
    private val json: Json = Json,
) : SerdeApproach<String>() {
    override val format = WireFormat.Json
    private val listSerializer = ListSerializer(SpecObject.serializer())
    private val objectSerializer = SpecObject.serializer()
    private val rescans = AtomicLong()

    // The decoder only sees text, so its threshold is in characters: the spec's object is ~1348 characters of JSON.
    private val parallelMinChars = parallelMinObjects.toLong() * SPEC_OBJECT_CHARS

    /** Deserializations that met a wrong cut and scanned for the true boundaries (the tests check both paths). */
    fun rescans(): Long = rescans.get()

    override fun serialize(objects: List<SpecObject>): String {
        if (objects.size < parallelMinObjects) return json.encodeToString(listSerializer, objects)
        val batch = pool.batch()
        val chunks = minOf(chunkCount(), objects.size)
        for (c in 0 until chunks) {
            val from = (objects.size.toLong() * c / chunks).toInt()
            val to = (objects.size.toLong() * (c + 1) / chunks).toInt()
            batch.submit { Array(to - from) { k -> json.encodeToString(objectSerializer, objects[from + k]) } }
        }
        val joiner = StringJoiner(",", "[", "]")
        for (chunk in batch.awaitAll<Array<String>>()) for (element in chunk) joiner.add(element)
        return joiner.toString()
    }

    override fun deserialize(wire: String): List<SpecObject> {
        if (wire.length < parallelMinChars) return json.decodeFromString(listSerializer, wire)
        val start = JsonArrayBoundaries.contentStart(wire)
        val end = wire.indexOfLast { !JsonArrayBoundaries.isWhitespace(it) }.takeIf { it > start && wire[it] == ']' }
            ?: return decodeScanned(wire, start)
        val cuts = SeparatorGuesses.between(wire, start, end, chunkCount())
        val starts = IntArray(cuts.size + 1) { k -> if (k == 0) start else cuts[k - 1] + 1 }
        val batch = pool.batch()
        for (k in starts.indices) {
            val chunkEnd = if (k < cuts.size) cuts[k] else end
            batch.submit { decodeOrNull(wire, starts[k], chunkEnd) }
        }
        val parts = batch.awaitAll<List<SpecObject>?>()
        val firstBad = parts.indexOfFirst { it == null }
        val proven = if (firstBad < 0) parts else parts.subList(0, firstBad)
        val out = ArrayList<SpecObject>(proven.sumOf { it!!.size })
        for (part in proven) out.addAll(part!!)
        if (firstBad >= 0) {
            rescans.incrementAndGet()
            out.addAll(decodeScanned(wire, starts[firstBad]))
        }
        return out
    }

    override fun wireBytes(wire: String): ByteArray = wire.encodeToByteArray()

    /** The elements from [from] (where an element begins) to the end, cut where [JsonArrayBoundaries] finds them. */
    private fun decodeScanned(wire: String, from: Int): List<SpecObject> {
        val batch = pool.batch()
        val minChars = maxOf(1, (wire.length - from) / chunkCount())
        try {
            JsonArrayBoundaries.splitFrom(wire, from, minChars) { s, e -> batch.submit { decode(wire, s, e) } }
        } catch (e: Throwable) {
            batch.cancel()
            throw e
        }
        return batch.awaitAll<List<SpecObject>>().flatten()
    }

    private fun decode(text: String, start: Int, end: Int): List<SpecObject> =
        json.decodeFromString(listSerializer, StringBuilder(end - start + 2).append('[').append(text, start, end).append(']').toString())

    // kotlinx's SerializationException is an IllegalArgumentException: the chunk is not an array of whole elements.
    private fun decodeOrNull(text: String, start: Int, end: Int): List<SpecObject>? =
        try {
            decode(text, start, end)
        } catch (e: IllegalArgumentException) {
            null
        }

    /** About [CHUNKS_PER_THREAD] chunks per pool thread, so that a thread finishing early finds work left. */
    private fun chunkCount() = pool.threads * CHUNKS_PER_THREAD

    companion object {
        /** Characters of JSON per object of the spec's `objects` document (1348.5 on average; payloads/SPEC.md). */
        const val SPEC_OBJECT_CHARS = 1348
        const val CHUNKS_PER_THREAD = 4
    }
}
