package lab.jvmserializer.serde

/**
 * Finds where a JSON array's top-level elements begin and end without parsing them, so that chunks of whole elements
 * can be decoded in parallel. It only has to know what a separator at the top level looks like: a `,` outside every
 * string and at nesting depth one. So it tracks strings (a `"` opens one; inside, `\` escapes the next character, so
 * `\"` does not close it and `\\` does not escape the quote after it) and nesting (`[`/`{` against `]`/`}`); it
 * checks nothing else, the decoder checks the rest.
 */
object JsonArrayBoundaries {
    /**
     * Calls [emit] with the (start, end) of consecutive ranges of [text], in order, each holding one or more whole
     * top-level elements joined by their commas (never the brackets or the commas between ranges): a range ends at the
     * first top-level comma at least [minChars] characters after its start, the last range at the closing bracket.
     * Emitting while scanning lets the decoding of the first ranges start before the scan has reached the end.
     * Returns the number of top-level elements. Throws [IllegalArgumentException] on text that is not one array.
     */
    fun split(text: String, minChars: Int, emit: (start: Int, end: Int) -> Unit): Int =
        splitFrom(text, contentStart(text), minChars, emit = emit)

    /** Each top-level element's text, without the whitespace around it: one String each, for small arrays. */
    fun elements(text: String): List<String> {
        val out = ArrayList<String>()
        split(text, 0) { start, end -> out += text.substring(start, end).trim() }
        return out
    }

    /** Index just past the array's opening bracket. */
    fun contentStart(text: String): Int {
        val i = skipWhitespace(text, 0)
        require(i < text.length && text[i] == '[') { "not a JSON array: it does not start with '['" }
        return i + 1
    }

    /**
     * [split] from [from], which must be where an element begins: just past the opening bracket or a top-level comma.
     * Returns the number of top-level elements from there on. [until]: where the array's text ends, when it is one
     * inside a larger document (a user's document's largest array), else the text's end.
     */
    fun splitFrom(text: String, from: Int, minChars: Int, until: Int = text.length, emit: (start: Int, end: Int) -> Unit): Int {
        val length = until
        var i = from
        var rangeStart = i
        var depth = 0
        var elements = 0
        var inElement = false // a non-blank character seen since the last top-level comma
        while (i < length) {
            when (text[i]) {
                '"' -> {
                    i = endOfString(text, i)
                    inElement = true
                    continue
                }
                '[', '{' -> {
                    depth++
                    inElement = true
                }
                ']', '}' -> {
                    if (depth == 0) {
                        require(text[i] == ']') { "not a JSON array: '}' closes it at $i" }
                        if (inElement) elements++ else require(elements == 0 && text[from - 1] != ',') { "not a JSON array: a comma before ']' at $i" }
                        if (elements > 0) emit(rangeStart, i)
                        require(skipWhitespace(text, i + 1) >= length) { "not one JSON array: text after its end at $i" }
                        return elements
                    }
                    depth--
                }
                ',' -> if (depth == 0) {
                    elements++
                    inElement = false
                    if (i - rangeStart >= minChars) {
                        emit(rangeStart, i)
                        rangeStart = i + 1
                    }
                }
                ' ', '\t', '\n', '\r' -> {}
                else -> inElement = true
            }
            i++
        }
        throw IllegalArgumentException("not a JSON array: it is not closed")
    }

    /** Index just past the string whose opening quote is at [open]. */
    private fun endOfString(text: String, open: Int): Int {
        var i = open + 1
        while (i < text.length) {
            when (text[i]) {
                '"' -> return i + 1
                '\\' -> i += 2
                else -> i++
            }
        }
        throw IllegalArgumentException("not a JSON array: the string at $open is not closed")
    }

    fun isWhitespace(c: Char) = c == ' ' || c == '\t' || c == '\n' || c == '\r'

    private fun skipWhitespace(text: String, from: Int): Int {
        var i = from
        while (i < text.length && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) i++
        return i
    }
}
