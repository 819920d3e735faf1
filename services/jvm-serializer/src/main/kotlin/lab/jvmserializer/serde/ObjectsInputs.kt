package lab.jvmserializer.serde

import lab.jvmserializer.memory.MemoryBudget
import lab.jvmserializer.payloads.PlainCborWriter
import lab.jvmserializer.payloads.PlainJsonWriter
import lab.jvmserializer.payloads.SpecObject
import lab.jvmserializer.payloads.Vectors
import lab.jvmserializer.payloads.digestOfStream
import lab.jvmserializer.payloads.digestOfText
import lab.jvmserializer.payloads.generateObjects
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.locks.ReentrantLock
import kotlin.concurrent.withLock

/** A hash an approach's bytes must equal, and what it comes from (the answer's `reference`). */
data class Reference(val name: String, val sha256: String)

/**
 * An `objects` input and its references: the JSON one (the vector if pinned, else the plain writer) made with the
 * input, a CBOR dialect's (its plain writer) on first use, since most runs never need it. Both streamed into sha256.
 */
class ObjectsInput(val objects: List<SpecObject>, private val json: Reference) {
    private val cbor = ConcurrentHashMap<WireFormat.Cbor, Reference>()

    fun reference(format: WireFormat): Reference = when (format) {
        WireFormat.Json -> json
        is WireFormat.Cbor -> cbor.computeIfAbsent(format) {
            Reference(ObjectsInputs.REFERENCE_PLAIN_CBOR_WRITER, digestOfStream { PlainCborWriter(it, format.dialect).writeObjects(objects) }.sha256)
        }
    }
}

/**
 * Generated inputs and their references, kept in an LRU bounded by the total number of objects held (one object is
 * ~6 KB on the heap, so the bound is what matters for memory, not the number of entries). Generation and the
 * reference are never timed. Locked: a miss generates under the lock, so two runs never build the same input
 * twice nor overshoot the bound together. With a [budget] ([holdIn]), each kept input holds its share of it, and the
 * inputs are dropped when a run or an upload needs the room: they are kept only to save generating them again.
 */
class ObjectsInputs(private val vectors: Vectors, private val maxObjects: Int) {
    // Access order: a hit moves the entry to the end, so iteration starts at the least recently used.
    private val entries = LinkedHashMap<Pair<Int, Int>, ObjectsInput>(16, 0.75f, true)
    private val shares = HashMap<Pair<Int, Int>, MemoryBudget.Reservation>()
    private var heldObjects = 0L
    private var budget: MemoryBudget? = null
    private val lock = ReentrantLock()

    /** Kept inputs hold their share of [budget] from now on, and are dropped when it runs short. */
    fun holdIn(budget: MemoryBudget) {
        this.budget = budget
        budget.onShort(::dropAll)
    }

    /** Drops every kept input; never waits for the lock (a thread generating an input holds it): false then. */
    private fun dropAll(): Boolean {
        if (!lock.tryLock()) return false
        try {
            val any = entries.isNotEmpty()
            entries.clear()
            shares.values.forEach { it.close() }
            shares.clear()
            heldObjects = 0
            return any
        } finally {
            lock.unlock()
        }
    }

    fun get(seed: Int, size: Int): ObjectsInput = lock.withLock { getLocked(seed, size) }

    private fun getLocked(seed: Int, size: Int): ObjectsInput {
        val key = seed to size
        entries[key]?.let { return it }
        // Evict before generating, so the old inputs are collectable while the new one is built.
        val iterator = entries.entries.iterator()
        while (iterator.hasNext() && heldObjects + size > maxObjects) {
            val evicted = iterator.next()
            heldObjects -= evicted.value.objects.size
            shares.remove(evicted.key)?.close()
            iterator.remove()
        }
        val input = create(seed, size)
        if (size > maxObjects) return input
        // Kept only if its share fits beside what runs hold: a run holds its input's share itself while it runs.
        val share = budget?.let { it.tryReserve(size * OBJECT_BYTES) ?: return input }
        entries[key] = input
        share?.let { shares[key] = it }
        heldObjects += size
        return input
    }

    private fun create(seed: Int, size: Int): ObjectsInput {
        val objects = generateObjects(seed, size)
        val pinned = vectors.objectsHash(seed, size)
        val json = if (pinned != null) {
            Reference(REFERENCE_VECTOR, pinned)
        } else {
            Reference(REFERENCE_PLAIN_WRITER, digestOfText { PlainJsonWriter.writeObjects(objects, it) }.sha256)
        }
        return ObjectsInput(objects, json)
    }

    companion object {
        /** One generated object on the heap (README, "Memory": 100 strings of 10 characters and their list). */
        const val OBJECT_BYTES = 6_200L

        const val REFERENCE_VECTOR = "vector"
        const val REFERENCE_PLAIN_WRITER = "plain-writer"
        const val REFERENCE_PLAIN_CBOR_WRITER = "plain-cbor-writer"
    }
}
