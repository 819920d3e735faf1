package lab.jvmserializer.memory

/**
 * What a document's trees and runs cost depends on: its values (every object, array, string, number, true, false and
 * null), its objects' members and its text's UTF-8 bytes, as the upload's scan counts them.
 */
data class DocumentShape(val nodes: Long, val keys: Long, val textBytes: Long) {
    /** The same document with [nodes] values in place of its own (the limit a 413 names). */
    fun withNodes(nodes: Long) = copy(nodes = nodes)
}

/**
 * A document approach's memory, in bytes, from a document's shape (docs/findings/jvm-serializer.md has the
 * measurements): a parsed tree costs [treePerNode] per value, [treePerKey] per member and [treePerTextByte] per byte
 * of text (the characters its strings and numbers keep); a run holds its input tree and, while it runs, a second,
 * decoded tree, with [runPerNode] and [runPerTextByte] more for what the round trip and its check make on the way (the
 * wire, the written text, the writers' growing buffers, per-element strings). Each figure is the largest measured over
 * the densest shapes, so the model errs high; [FIXED_BYTES] covers what does not grow with the document.
 */
class MemoryModel(
    val treePerNode: Long,
    val treePerKey: Long,
    val treePerTextByte: Long,
    val runPerNode: Long,
    val runPerTextByte: Long,
) {
    /** One parsed tree of the document, as a run's input keeps it. */
    fun treeBytes(shape: DocumentShape): Long =
        treePerNode * shape.nodes + treePerKey * shape.keys + treePerTextByte * shape.textBytes + FIXED_BYTES

    /** What a run holds beyond its input tree: the decoded tree and the round trip's and check's buffers. */
    fun transientBytes(shape: DocumentShape): Long =
        treeBytes(shape) + runPerNode * shape.nodes + runPerTextByte * shape.textBytes

    /** A whole run, its input tree included; also an upload's reading by this approach (the same round trip). */
    fun runBytes(shape: DocumentShape): Long = treeBytes(shape) + transientBytes(shape)

    /** The most values a document of this shape's keys and text may hold for a run of it to take [bytes]; 0 if none. */
    fun nodesWithin(bytes: Long, shape: DocumentShape): Long {
        val perNode = 2 * treePerNode + runPerNode
        val rest = runBytes(shape.withNodes(0))
        return if (bytes <= rest) 0 else (bytes - rest) / perNode
    }

    companion object {
        const val FIXED_BYTES = 1L shl 20
    }
}
