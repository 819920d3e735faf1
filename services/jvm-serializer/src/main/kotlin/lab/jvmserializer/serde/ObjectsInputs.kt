package lab.jvmserializer.serde

import lab.jvmserializer.payloads.PlainJsonWriter
import lab.jvmserializer.payloads.SpecObject
import lab.jvmserializer.payloads.Vectors
import lab.jvmserializer.payloads.digestOfText
import lab.jvmserializer.payloads.generateObjects

/** An `objects` input and the sha256 its compact JSON must have, with where that hash came from. */
class ObjectsInput(val objects: List<SpecObject>, val referenceHash: String, val reference: String)

/**
 * Generated inputs and their references, kept in an LRU bounded by the total number of objects held (one object is
 * ~6 KB on the heap, so the bound is what matters for memory, not the number of entries). Generation and the
 * reference are never timed. Synchronized: a miss generates under the lock, so two runs never build the same input
 * twice nor overshoot the bound together.
 */
class ObjectsInputs(private val vectors: Vectors, private val maxObjects: Int) {
    // Access order: a hit moves the entry to the end, so iteration starts at the least recently used.
    private val entries = LinkedHashMap<Pair<Int, Int>, ObjectsInput>(16, 0.75f, true)
    private var heldObjects = 0L

    @Synchronized
    fun get(seed: Int, size: Int): ObjectsInput {
        val key = seed to size
        entries[key]?.let { return it }
        // Evict before generating, so the old inputs are collectable while the new one is built.
        val iterator = entries.entries.iterator()
        while (iterator.hasNext() && heldObjects + size > maxObjects) {
            heldObjects -= iterator.next().value.objects.size
            iterator.remove()
        }
        val input = create(seed, size)
        if (size <= maxObjects) {
            entries[key] = input
            heldObjects += size
        }
        return input
    }

    private fun create(seed: Int, size: Int): ObjectsInput {
        val objects = generateObjects(seed, size)
        val pinned = vectors.objectsHash(seed, size)
        return if (pinned != null) {
            ObjectsInput(objects, pinned, REFERENCE_VECTOR)
        } else {
            ObjectsInput(objects, digestOfText { PlainJsonWriter.writeObjects(objects, it) }.sha256, REFERENCE_PLAIN_WRITER)
        }
    }

    companion object {
        const val REFERENCE_VECTOR = "vector"
        const val REFERENCE_PLAIN_WRITER = "plain-writer"
    }
}
