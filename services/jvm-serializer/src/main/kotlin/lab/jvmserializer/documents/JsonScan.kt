package lab.jvmserializer.documents

import lab.jvmserializer.payloads.Digest
import lab.jvmserializer.payloads.digestOfText
import java.math.BigInteger

/** Where a text stops being JSON: 1-based line and column, a short excerpt around it, and what was wrong. */
class NotJson(val what: String, val line: Int, val column: Int, val excerpt: String) :
    IllegalArgumentException("$what at line $line, column $column")

/** The first instance of a finding's topic in a document ([JsonScan]): a JSON pointer, the token, how many. */
class Instance(val path: String, val token: String) {
    var count = 1
}

/**
 * One pass over a JSON text (RFC 8259, strict: what JSON.parse takes, no more): checks it, measures its nesting, and
 * writes its canonical form into sha256, the reference every document run is checked against. The canonical form
 * keeps every token the document holds, in its order, duplicate keys and number literals included, and erases only
 * what JSON says carries no meaning: whitespace, and how a string's characters are spelled (`\u00e9` or `é`, `\/` or
 * `/`). Strings are written as JSON.stringify writes them: `\"`, `\\`, `\b \f \n \r \t`, other controls and lone
 * surrogates as lowercase `\u00xx`, everything else as itself. So an approach whose output, brought to the same form,
 * differs from the document's changed a value, not a spelling. Also notes the first instance and the count of every
 * topic where runtimes disagree ([topics]). Iterative: a document as deep as the cap costs no stack.
 */
class JsonScan private constructor(private val text: String, private val maxDepth: Int) {
    /** The deepest nesting of containers; the first over the cap stops the scan ([TooDeep]). */
    var depth = 0
        private set

    /** topic -> its first instance and count (FindingTopics' names). */
    val topics = LinkedHashMap<String, Instance>()

    private var i = 0
    private lateinit var out: Appendable
    private val buffer = StringBuilder(1 shl 16)

    // The open containers: kind ('{' or '['), the current key or index, the keys seen (duplicate-key).
    private val kinds = ArrayList<Char>()
    private val keys = ArrayList<String?>()
    private val positions = ArrayList<Int>()
    private val seen = ArrayList<HashSet<String>?>()

    class TooDeep(val depth: Int) : IllegalArgumentException("nested $depth levels deep")

    private fun emit(c: Char) {
        buffer.append(c)
        if (buffer.length >= 1 shl 16) flush()
    }

    private fun emit(s: CharSequence) {
        buffer.append(s)
        if (buffer.length >= 1 shl 16) flush()
    }

    private fun flush() {
        out.append(buffer)
        buffer.setLength(0)
    }

    private fun run(): Digest = digestOfText { appendable ->
        out = appendable
        skipWhitespace()
        value()
        while (true) {
            skipWhitespace()
            if (kinds.isEmpty()) break
            val kind = kinds.last()
            when {
                at(',') -> {
                    i++
                    emit(',')
                    skipWhitespace()
                    if (kind == '{') member() else {
                        positions[positions.size - 1] = positions.last() + 1
                        value()
                    }
                }
                at(if (kind == '{') '}' else ']') -> close()
                else -> fail(if (kind == '{') "expected ',' or '}' after a property value" else "expected ',' or ']' after an array element")
            }
        }
        if (i < text.length) fail("unexpected text after the JSON value")
        flush()
    }

    private fun at(c: Char) = i < text.length && text[i] == c

    /** A value, or the opening of a container (whose members the loop in [run] reads). */
    private fun value() {
        if (i >= text.length) fail("unexpected end of the text: a value was expected")
        when (val c = text[i]) {
            '{', '[' -> open(c)
            '"' -> emitString(string())
            't' -> literal("true")
            'f' -> literal("false")
            'n' -> literal("null")
            else -> if (c == '-' || c in '0'..'9') number() else fail("unexpected character ${describe(c)}: a value was expected")
        }
    }

    private fun open(c: Char) {
        i++
        emit(c)
        kinds += c
        keys += null
        positions += 0
        seen += if (c == '{') HashSet() else null
        if (kinds.size > depth) depth = kinds.size
        if (depth > maxDepth) throw TooDeep(depth)
        skipWhitespace()
        if (at(if (c == '{') '}' else ']')) close() else if (c == '{') member() else value()
    }

    private fun close() {
        emit(text[i])
        i++
        kinds.removeAt(kinds.size - 1)
        keys.removeAt(keys.size - 1)
        positions.removeAt(positions.size - 1)
        seen.removeAt(seen.size - 1)
    }

    /** `"key": value` (the value may open a container). */
    private fun member() {
        if (!at('"')) fail("expected a property name in double quotes")
        val keyStart = i
        val key = string()
        val top = kinds.size - 1
        keys[top] = key
        if (!seen[top]!!.add(key)) note(DUPLICATE_KEY, text.substring(keyStart, i))
        emitString(key)
        skipWhitespace()
        if (!at(':')) fail("expected ':' after a property name")
        i++
        emit(':')
        skipWhitespace()
        value()
    }

    /** Reads the string at [i] (its opening quote), decoding its escapes; checks what JSON forbids in it. */
    private fun string(): String {
        val start = i
        i++
        val sb = StringBuilder()
        while (true) {
            if (i >= text.length) failAt(start, "unterminated string")
            val c = text[i]
            when {
                c == '"' -> {
                    i++
                    return sb.toString()
                }
                c == '\\' -> {
                    if (i + 1 >= text.length) failAt(start, "unterminated string")
                    when (val e = text[i + 1]) {
                        '"', '\\', '/' -> sb.append(e)
                        'b' -> sb.append('\b')
                        'f' -> sb.append('\u000c')
                        'n' -> sb.append('\n')
                        'r' -> sb.append('\r')
                        't' -> sb.append('\t')
                        'u' -> {
                            val hex = text.substring(i + 2, minOf(i + 6, text.length))
                            if (hex.length < 4 || !hex.all { it in '0'..'9' || it in 'a'..'f' || it in 'A'..'F' }) fail("bad unicode escape")
                            sb.append(hex.toInt(16).toChar())
                            i += 4
                        }
                        else -> fail("bad escaped character ${describe(e)}")
                    }
                    i += 2
                }
                c < ' ' -> fail("bad control character ${describe(c)} in a string")
                else -> {
                    sb.append(c)
                    i++
                }
            }
        }
    }

    /** Writes [s] as JSON.stringify would; a lone surrogate is a finding (at its value's or its member's pointer). */
    private fun emitString(s: String) {
        emit('"')
        var k = 0
        while (k < s.length) {
            val c = s[k]
            when {
                c == '"' -> emit("\\\"")
                c == '\\' -> emit("\\\\")
                c == '\b' -> emit("\\b")
                c == '\u000c' -> emit("\\f")
                c == '\n' -> emit("\\n")
                c == '\r' -> emit("\\r")
                c == '\t' -> emit("\\t")
                c < ' ' -> emit(unicodeEscape(c))
                Character.isHighSurrogate(c) && k + 1 < s.length && Character.isLowSurrogate(s[k + 1]) -> {
                    emit(c)
                    emit(s[k + 1])
                    k++
                }
                Character.isSurrogate(c) -> {
                    note(LONE_SURROGATE, unicodeEscape(c))
                    emit(unicodeEscape(c))
                }
                else -> emit(c)
            }
            k++
        }
        emit('"')
    }

    private fun literal(word: String) {
        if (!text.startsWith(word, i)) fail("unexpected character ${describe(text[i])}: a value was expected")
        i += word.length
        emit(word)
    }

    /** `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, written as it stands; notes the topics it is. */
    private fun number() {
        val start = i
        if (at('-')) i++
        if (at('0')) i++ else if (i < text.length && text[i] in '1'..'9') digits() else fail("no digit after a minus sign")
        var integer = true
        if (at('.')) {
            integer = false
            i++
            if (!(i < text.length && text[i] in '0'..'9')) fail("no digit after a decimal point")
            digits()
        }
        if (at('e') || at('E')) {
            integer = false
            i++
            if (at('+') || at('-')) i++
            if (!(i < text.length && text[i] in '0'..'9')) fail("no digit in an exponent")
            digits()
        }
        val literal = text.substring(start, i)
        emit(literal)
        val mantissa = literal.substringBefore('e').substringBefore('E')
        when {
            literal[0] == '-' && mantissa.all { it == '-' || it == '0' || it == '.' } -> note(NEGATIVE_ZERO, literal)
            integer && literal.length > 15 && BigInteger(literal).abs() > MAX_SAFE_INTEGER -> note(LARGE_INTEGER, literal)
            !integer && java.lang.Double.toString(literal.toDouble()) != literal -> note(NUMBER_FORMAT, literal)
        }
    }

    private fun digits() {
        while (i < text.length && text[i] in '0'..'9') i++
    }

    private fun skipWhitespace() {
        while (i < text.length && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) i++
    }

    /** Counts an instance of [topic]; the first keeps its JSON pointer (a key's: its member's). */
    private fun note(topic: String, token: String) {
        topics[topic]?.let { it.count++; return }
        topics[topic] = Instance(pointer(), token)
    }

    /** RFC 6901: each key with `~` as `~0` and `/` as `~1`; an object's current key is the member being read. */
    private fun pointer(): String = buildString {
        for (k in kinds.indices) {
            append('/')
            if (kinds[k] == '{') append((keys[k] ?: "").replace("~", "~0").replace("/", "~1")) else append(positions[k])
        }
    }

    private fun fail(what: String): Nothing = failAt(i, what)

    private fun failAt(at: Int, what: String): Nothing {
        val lineStart = text.lastIndexOf('\n', at - 1) + 1
        val line = 1 + text.substring(0, lineStart).count { it == '\n' }
        val lineEnd = text.indexOf('\n', at).let { if (it < 0) text.length else it }
        val excerpt = text.substring(maxOf(lineStart, at - EXCERPT_CHARS), minOf(lineEnd, at + EXCERPT_CHARS))
        throw NotJson(what, line, at - lineStart + 1, excerpt)
    }

    private fun describe(c: Char) = if (c < ' ' || c == '\u007f') unicodeEscape(c) else "'$c'"

    companion object {
        const val LARGE_INTEGER = "large-integer"
        const val NEGATIVE_ZERO = "negative-zero"
        const val DUPLICATE_KEY = "duplicate-key"
        const val LONE_SURROGATE = "lone-surrogate"
        const val NUMBER_FORMAT = "number-format"
        const val EXCERPT_CHARS = 24

        /** JavaScript's Number.MAX_SAFE_INTEGER: past it a JSON.parse in Node rounds an integer. */
        val MAX_SAFE_INTEGER: BigInteger = BigInteger.valueOf((1L shl 53) - 1)

        /**
         * Scans [text]: the scan (depth, topics) and the digest of the canonical form. Throws [NotJson] where it stops
         * being JSON, [TooDeep] past [maxDepth] (before reading further).
         */
        fun of(text: String, maxDepth: Int): Pair<JsonScan, Digest> {
            val scan = JsonScan(text, maxDepth)
            val digest = scan.run()
            return scan to digest
        }

        private fun unicodeEscape(c: Char) = "\\u%04x".format(c.code)
    }
}
