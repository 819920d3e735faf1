package lab.jvmserializer.serde

/**
 * Where to cut a JSON array into chunks without scanning it: near each of `parts - 1` evenly spaced offsets, the first
 * comma that sits between a closing and an opening bracket (`},{` or `],[`, white space allowed), which is how
 * elements that are objects or arrays follow each other. Only a guess: such a comma may also sit inside a string or
 * deeper in the nesting. [MultithreadedJsonApproach] checks every guess by decoding (see there), so a wrong guess
 * costs time, never a wrong result. An array of strings or numbers gets no guesses and is decoded whole.
 */
object SeparatorGuesses {
    /** Increasing indices of commas strictly between [start] and [end], at most `parts - 1` of them. */
    fun between(text: String, start: Int, end: Int, parts: Int): IntArray {
        val cuts = IntArray(maxOf(0, parts - 1))
        var count = 0
        var from = start
        for (k in 1 until parts) {
            val i = nextCandidate(text, maxOf(from, start + ((end - start).toLong() * k / parts).toInt()), end)
            if (i < 0) break
            cuts[count++] = i
            from = i + 1
        }
        return cuts.copyOf(count)
    }

    private fun nextCandidate(text: String, from: Int, end: Int): Int {
        var i = text.indexOf(',', from)
        while (i in 0 until end) {
            if (isCloser(previousNonBlank(text, i - 1)) && isOpener(nextNonBlank(text, i + 1, end))) return i
            i = text.indexOf(',', i + 1)
        }
        return -1
    }

    private fun previousNonBlank(text: String, from: Int): Char {
        var i = from
        while (i >= 0 && JsonArrayBoundaries.isWhitespace(text[i])) i--
        return if (i >= 0) text[i] else ' '
    }

    private fun nextNonBlank(text: String, from: Int, end: Int): Char {
        var i = from
        while (i < end && JsonArrayBoundaries.isWhitespace(text[i])) i++
        return if (i < end) text[i] else ' '
    }

    private fun isCloser(c: Char) = c == '}' || c == ']'
    private fun isOpener(c: Char) = c == '{' || c == '['
}
