package lab.jvmserializer.documents

/** Where a text stops being JSON: 1-based line and column, a short excerpt around it, and what was wrong. */
class NotJson(val what: String, val line: Int, val column: Int, val excerpt: String) :
    IllegalArgumentException("$what at line $line, column $column")

/**
 * Two reads of a text's syntax alone, as the Node services make them, so that a refusal of `PUT /documents` is the
 * same answer in every runtime (CONTRACT.md, "Users' documents"):
 * - [locate]: node-kit/json-syntax-error.js' locateJsonError, line for line: the offset of the first place the text is
 *   not JSON as RFC 8259 reads it, its line and column (from 1, in UTF-16 units, lines split at `\n` only) and the
 *   text 24 units either side of it, across line ends;
 * - [nestingDepth]: node-kit/document-upload.js' nestingDepth, for a text that is JSON.
 * Both are loops over the text with no recursion, so no nesting, however deep, costs stack.
 */
object JsonSyntax {
    private const val EXCERPT_CHARS = 24
    private const val ESCAPES = "\"\\/bfnrt"
    private val LITERALS = listOf("true", "false", "null")

    private class At(val offset: Int, val what: String)

    private enum class Expect { VALUE, VALUE_OR_CLOSE, KEY, KEY_OR_CLOSE, COLON, COMMA_OR_CLOSE, END }

    /** Where [text] first stops being JSON, or null when it is JSON. */
    fun locate(text: String): NotJson? {
        val error = firstError(text) ?: return null
        val lineStart = text.lastIndexOf('\n', error.offset - 1) + 1
        var line = 1
        for (k in 0 until lineStart) if (text[k] == '\n') line++
        val excerpt = text.substring(maxOf(0, error.offset - EXCERPT_CHARS), minOf(text.length, error.offset + EXCERPT_CHARS))
        return NotJson(error.what, line, error.offset - lineStart + 1, excerpt)
    }

    /** How deep a JSON text nests (containers inside containers), read outside its strings. */
    fun nestingDepth(text: String): Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var i = 0
        while (i < text.length) {
            val c = text[i]
            if (inString) {
                if (c == '\\') i++ else if (c == '"') inString = false
            } else if (c == '"') inString = true
            else if (c == '[' || c == '{') deepest = maxOf(deepest, ++depth)
            else if (c == ']' || c == '}') depth--
            i++
        }
        return deepest
    }

    private fun isSpace(c: Char) = c == ' ' || c == '\t' || c == '\n' || c == '\r'

    /** 'x' for a visible character, U+0001 for any other. */
    private fun describe(c: Char) = if (c.code in 0x21..0x7e) "'$c'" else "U+%04X".format(c.code)

    private fun firstError(text: String): At? {
        val open = ArrayList<Char>() // '{' or '[' of each container entered and not closed
        var expect = Expect.VALUE
        var i = 0
        fun afterValue() = if (open.isEmpty()) Expect.END else Expect.COMMA_OR_CLOSE
        while (true) {
            while (i < text.length && isSpace(text[i])) i++
            if (i >= text.length) return if (expect == Expect.END) null else At(i, "the end of the text where ${expected(expect, open)} was expected")
            val ch = text[i]
            when {
                expect == Expect.END -> return At(i, "${describe(ch)} after the end of the document")
                expect == Expect.COLON -> {
                    if (ch != ':') return At(i, "${describe(ch)} where ':' was expected")
                    i++
                    expect = Expect.VALUE
                }
                expect == Expect.COMMA_OR_CLOSE -> {
                    val container = open.last()
                    val close = if (container == '{') '}' else ']'
                    when (ch) {
                        ',' -> {
                            i++
                            expect = if (container == '{') Expect.KEY else Expect.VALUE
                        }
                        close -> {
                            open.removeAt(open.size - 1)
                            i++
                            expect = afterValue()
                        }
                        else -> return At(i, "${describe(ch)} where ',' or '$close' was expected")
                    }
                }
                expect == Expect.KEY || expect == Expect.KEY_OR_CLOSE -> when {
                    expect == Expect.KEY_OR_CLOSE && ch == '}' -> {
                        open.removeAt(open.size - 1)
                        i++
                        expect = afterValue()
                    }
                    ch == '"' -> {
                        i = endOfString(text, i).let { if (it is At) return it else it as Int }
                        expect = Expect.COLON
                    }
                    else -> return At(i, "${describe(ch)} where a key (a string in double quotes) was expected")
                }
                expect == Expect.VALUE_OR_CLOSE && ch == ']' -> {
                    open.removeAt(open.size - 1)
                    i++
                    expect = afterValue()
                }
                ch == '{' || ch == '[' -> {
                    open += ch
                    i++
                    expect = if (ch == '{') Expect.KEY_OR_CLOSE else Expect.VALUE_OR_CLOSE
                }
                ch == '"' -> {
                    i = endOfString(text, i).let { if (it is At) return it else it as Int }
                    expect = afterValue()
                }
                else -> {
                    val end = endOfScalar(text, i)
                    if (end < 0) return At(i, "${describe(ch)} where a value was expected")
                    i = end
                    expect = afterValue()
                }
            }
        }
    }

    private fun expected(expect: Expect, open: List<Char>): String = when (expect) {
        Expect.VALUE -> "a value"
        Expect.VALUE_OR_CLOSE -> "a value or ']'"
        Expect.KEY -> "a key"
        Expect.KEY_OR_CLOSE -> "a key or '}'"
        Expect.COLON -> "':'"
        else -> "',' or '${if (open.lastOrNull() == '{') '}' else ']'}'"
    }

    /** The end of the string literal starting at text[at] ('"') as an Int, or the [At] where it breaks. */
    private fun endOfString(text: String, at: Int): Any {
        var i = at + 1
        while (i < text.length) {
            val c = text[i]
            if (c == '"') return i + 1
            if (c < ' ') return At(i, "a control character (${describe(c)}) inside a string: escape it")
            if (c == '\\') {
                if (i + 1 >= text.length) break
                val escaped = text[i + 1]
                if (escaped == 'u') {
                    if (i + 6 > text.length || !(i + 2 until i + 6).all { isHex(text[it]) }) return At(i, "a \\u escape without four hex digits")
                    i += 6
                    continue
                }
                if (escaped !in ESCAPES) return At(i, "an unknown escape \\$escaped")
                i += 2
                continue
            }
            i++
        }
        return At(text.length, "the end of the text inside a string")
    }

    private fun isHex(c: Char) = c in '0'..'9' || c in 'a'..'f' || c in 'A'..'F'

    private fun isDigit(text: String, at: Int) = at < text.length && text[at] in '0'..'9'

    /**
     * The end of the number or literal starting at text[at], or -1: json-syntax-error.js' NUMBER, a sticky regular
     * expression, takes the longest prefix that is a number (a fraction or an exponent only with its digits), so
     * `1e` ends after `1` and the `e` is the error.
     */
    private fun endOfScalar(text: String, at: Int): Int {
        for (literal in LITERALS) if (text.startsWith(literal, at)) return at + literal.length
        var i = at
        if (i < text.length && text[i] == '-') i++
        when {
            i < text.length && text[i] == '0' -> i++
            i < text.length && text[i] in '1'..'9' -> while (isDigit(text, i)) i++
            else -> return -1
        }
        if (i < text.length && text[i] == '.' && isDigit(text, i + 1)) {
            i++
            while (isDigit(text, i)) i++
        }
        if (i < text.length && (text[i] == 'e' || text[i] == 'E')) {
            val sign = if (i + 1 < text.length && (text[i + 1] == '+' || text[i + 1] == '-')) 1 else 0
            if (isDigit(text, i + 1 + sign)) {
                i += 1 + sign
                while (isDigit(text, i)) i++
            }
        }
        return i
    }
}
