package lab.jvmserializer.memory

/**
 * What `PUT /documents` holds of the heap, beside the readings it takes with the approaches' own models ([MemoryModel]),
 * per byte of the document's text (T) and per value: what the store can take is what this runtime can run.
 * - while the body is read: [READ_PER_BYTE] (the growing buffer, twice what arrived at worst, and its final copy);
 * - while it is scanned: [SCAN_PER_BYTE] (the bytes, the text as UTF-16 at worst, each finding's instance offsets, 4
 *   bytes per 2 of text at worst, and the open objects' key sets, 16 bytes per member of 4 bytes at least);
 * - while the approaches read it: [HELD_PER_BYTE] (the bytes, the text, the findings' probes) and [HELD_PER_NODE] (the
 *   instance offsets), beside the largest reading.
 * An approach whose upload would not fit the whole budget cannot run the document here: it is marked `fails`, and a
 * document no approach can run is refused with 413 naming the values it holds and the most it could.
 */
object UploadMemory {
    const val READ_PER_BYTE = 3L
    const val SCAN_PER_BYTE = 9L
    const val HELD_PER_BYTE = 5L
    const val HELD_PER_NODE = 4L

    /** An upload's check with [model]'s reading: what it holds at its peak. */
    fun checkBytes(model: MemoryModel, shape: DocumentShape): Long =
        HELD_PER_BYTE * shape.textBytes + HELD_PER_NODE * shape.nodes + model.runBytes(shape)

    /**
     * The most values a document with [shape]'s keys and text may hold for some approach of [models] to be checked and
     * run within [capacity] (every cost is linear in the values, so it is solved, not searched); 0 if none.
     */
    fun limitNodes(models: Collection<MemoryModel>, shape: DocumentShape, capacity: Long): Long =
        models.maxOfOrNull { model -> solve(capacity) { n -> checkBytes(model, shape.withNodes(n)) } } ?: 0

    /**
     * /info's `maxNodes`: the most values any document can hold here, reached by the least text per value (2 bytes,
     * as in `[0,0,…]`) and no keys; a document with more text or keys per value is allowed fewer ([limitNodes]).
     */
    fun maxNodes(models: Collection<MemoryModel>, capacity: Long): Long =
        models.maxOfOrNull { model -> solve(capacity) { n -> checkBytes(model, DocumentShape(n, 0, 2 * n)) } } ?: 0

    /** The largest n with cost(n) <= capacity, for a cost linear in n. */
    private fun solve(capacity: Long, cost: (Long) -> Long): Long {
        val fixed = cost(0)
        val perNode = cost(1) - fixed
        return if (capacity <= fixed || perNode <= 0) 0 else (capacity - fixed) / perNode
    }
}
