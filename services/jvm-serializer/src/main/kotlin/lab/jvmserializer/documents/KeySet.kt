package lab.jvmserializer.documents

/**
 * The keys seen so far in one open object, to find a repeated one ([JsonScan]'s duplicate-key). Each key is kept as
 * where it starts in the text and its hash, 8 bytes (16 with the table's slack), where a HashSet<String> kept a String
 * and an entry, about 90: a document of millions of members in one object held hundreds of MB while it was scanned. A
 * hash that matches is confirmed by decoding the key at the stored offset again ([decodeAt]).
 */
internal class KeySet(private val decodeAt: (Int) -> String) {
    private var offsets = IntArray(8) { EMPTY }
    private var hashes = IntArray(8)
    private var size = 0

    /** Adds [key], which starts at [offset]; false if the object holds it already. */
    fun add(key: String, offset: Int): Boolean {
        val hash = spread(key.hashCode())
        var slot = hash and (offsets.size - 1)
        while (offsets[slot] != EMPTY) {
            if (hashes[slot] == hash && decodeAt(offsets[slot]) == key) return false
            slot = (slot + 1) and (offsets.size - 1)
        }
        offsets[slot] = offset
        hashes[slot] = hash
        if (++size * 2 > offsets.size) grow()
        return true
    }

    private fun grow() {
        val oldOffsets = offsets
        val oldHashes = hashes
        offsets = IntArray(oldOffsets.size * 2) { EMPTY }
        hashes = IntArray(oldOffsets.size * 2)
        for (k in oldOffsets.indices) {
            if (oldOffsets[k] == EMPTY) continue
            var slot = oldHashes[k] and (offsets.size - 1)
            while (offsets[slot] != EMPTY) slot = (slot + 1) and (offsets.size - 1)
            offsets[slot] = oldOffsets[k]
            hashes[slot] = oldHashes[k]
        }
    }

    private companion object {
        const val EMPTY = -1

        /** String hashes of short keys differ in their low bits little; mix the high ones in (as HashMap does). */
        fun spread(h: Int) = h xor (h ushr 16)
    }
}
