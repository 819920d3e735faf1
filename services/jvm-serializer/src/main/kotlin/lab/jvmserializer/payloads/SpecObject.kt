package lab.jvmserializer.payloads

import kotlinx.serialization.Serializable

/**
 * One element of the spec's `objects` document, the shape of the multithreaded-json experiment's kotlinx.serialization
 * test object. The property order is the spec's key order, which is also the order kotlinx.serialization writes them
 * in.
 */
@Serializable
data class SpecObject(val name: String, val number: Int, val strings: List<String>)

/** `[object x size]` with object = {"name": str(5), "number": int(2^31), "strings": [str(10) x 100]}. */
fun generateObjects(seed: Int, size: Int): List<SpecObject> {
    val d = Draws(seed)
    return List(size) { SpecObject(name = d.str(5), number = d.int(1L shl 31), strings = List(100) { d.str(10) }) }
}
