package lab.jvmserializer.documents

/**
 * A topic's instances in a document ([JsonScan]): the JSON pointer of the first, how many, and where each starts in
 * the text (a number, a string, or a repeated key's opening quote): 4 bytes each, so that every instance can be
 * probed later ([FindingDetails]) without keeping a copy of each.
 */
class Instance(val topic: String, val path: String, firstOffset: Int) {
    var count = 0
        private set
    private var offsets = IntArray(4)

    init {
        add(firstOffset)
    }

    fun add(offset: Int) {
        if (count == offsets.size) offsets = offsets.copyOf(count * 2)
        offsets[count++] = offset
    }

    /** Each instance's token as the text writes it (a number literal, or a string or key with its quotes). */
    fun tokens(text: String): Sequence<String> = (0 until count).asSequence().map { tokenAt(text, offsets[it]) }

    private fun tokenAt(text: String, at: Int): String {
        var i = at + 1
        if (text[at] == '"') {
            while (text[i] != '"') i += if (text[i] == '\\') 2 else 1
            return text.substring(at, i + 1)
        }
        while (i < text.length && (text[i] in '0'..'9' || text[i] in ".eE+-")) i++
        return text.substring(at, i)
    }
}
