package lab.jvmserializer.documents

import lab.jvmserializer.payloads.Digest
import lab.jvmserializer.payloads.digestOfText

/**
 * One pass over a JSON text (RFC 8259, strict: what JSON.parse takes, no more): checks it, measures its nesting, and
 * writes its canonical form into sha256, the reference every document run is checked against. The canonical form
 * keeps every token the document holds, in its order, duplicate keys included, and erases only what carries no
 * meaning: whitespace, how a string's characters are spelled (`\u00e9` or `é`, `\/` or `/`: [CanonicalStrings]), and
 * how a number's value is spelled (`1.0E-7` or `1e-7`; integers keep every digit, zeros their sign:
 * [CanonicalNumbers]). So an approach whose output, brought to the same form, differs from the document's changed a
 * value, not a spelling. Also counts the document's values and keys (what its trees cost:
 * [lab.jvmserializer.memory.MemoryModel]) and, where asked, notes every instance of each topic where runtimes
 * disagree ([findings]). Iterative: a document as deep as the cap costs no stack.
 */
class JsonScan private constructor(private val text: String, private val maxDepth: Int, private val findTopics: Boolean) {
    /** The deepest nesting of containers; the first over the cap stops the scan. */
    var depth = 0
        private set

    /** Every JSON value: each object, array, string, number, true, false and null (keys are not values). */
    var nodes = 0L
        private set

    /** Every member of every object (a repeated key counts each time). */
    var keys = 0L
        private set

    // topic -> its instances (FindingTopics' names), in the order first met.
    private val topics = HashMap<String, Instance>()

    /** The topics found, in the contract's order ([FindingTopics.ORDER]). */
    fun findings(): List<Instance> = FindingTopics.ORDER.mapNotNull { topics[it] }

    private var i = 0
    private lateinit var out: Appendable
    private val buffer = StringBuilder(1 shl 16)

    // The open containers: kind ('{' or '['), the current key or index, the keys seen (duplicate-key).
    private val kinds = ArrayList<Char>()
    private val names = ArrayList<String?>()
    private val positions = ArrayList<Int>()
    private val seen = ArrayList<KeySet?>()

    /** The text nests deeper than the cap: [depth] is how deep it nests in all. */
    class TooDeep(val depth: Int) : IllegalArgumentException("nested $depth levels deep")

    /** Where the scan stopped reading JSON; [JsonSyntax.locate] says where, as the Node services do. */
    private class Invalid(what: String) : IllegalArgumentException(what)

    /** Past the cap: the scan stops here, and [of] reads the rest of the text's syntax without building anything. */
    private class PastCap : RuntimeException(null, null, false, false)

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
        nodes++
        when (val c = text[i]) {
            '{', '[' -> open(c)
            '"' -> {
                val start = i
                emitString(string(), start)
            }
            't' -> literal("true")
            'f' -> literal("false")
            'n' -> literal("null")
            else -> if (c == '-' || c in '0'..'9') number() else fail("a value was expected")
        }
    }

    private fun open(c: Char) {
        i++
        emit(c)
        kinds += c
        names += null
        positions += 0
        seen += if (c == '{') KeySet(::keyAt) else null
        if (kinds.size > depth) depth = kinds.size
        if (depth > maxDepth) throw PastCap()
        skipWhitespace()
        if (at(if (c == '{') '}' else ']')) close() else if (c == '{') member() else value()
    }

    private fun close() {
        emit(text[i])
        i++
        kinds.removeAt(kinds.size - 1)
        names.removeAt(names.size - 1)
        positions.removeAt(positions.size - 1)
        seen.removeAt(seen.size - 1)
    }

    /** `"key": value` (the value may open a container). */
    private fun member() {
        if (!at('"')) fail("expected a property name in double quotes")
        val keyStart = i
        val key = string()
        val top = kinds.size - 1
        names[top] = key
        keys++
        if (!seen[top]!!.add(key, keyStart)) note(FindingTopics.DUPLICATE_KEY, keyStart)
        emitString(key, keyStart)
        skipWhitespace()
        if (!at(':')) fail("expected ':' after a property name")
        i++
        emit(':')
        skipWhitespace()
        value()
    }

    /** The key whose opening quote is at [offset], decoded again (a key already read, so it is valid). */
    private fun keyAt(offset: Int): String {
        val resume = i
        i = offset
        return string().also { i = resume }
    }

    /** Reads the string at [i] (its opening quote), decoding its escapes; checks what JSON forbids in it. */
    private fun string(): String {
        val start = i
        i++
        val sb = StringBuilder()
        while (true) {
            if (i >= text.length) fail("unterminated string")
            val c = text[i]
            when {
                c == '"' -> {
                    i++
                    return sb.toString()
                }
                c == '\\' -> {
                    if (i + 1 >= text.length) fail("unterminated string")
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
                        else -> fail("bad escaped character")
                    }
                    i += 2
                }
                c < ' ' -> fail("a control character in a string")
                else -> {
                    sb.append(c)
                    i++
                }
            }
        }
    }

    /**
     * Writes [s] (read from the string token at [start]) as JSON.stringify would; a string with an unpaired
     * surrogate is one lone-surrogate instance, however many it holds (at its value's or its member's pointer).
     */
    private fun emitString(s: String, start: Int) {
        if (CanonicalStrings.append(buffer, s)) note(FindingTopics.LONE_SURROGATE, start)
        if (buffer.length >= 1 shl 16) flush()
    }

    private fun literal(word: String) {
        if (!text.startsWith(word, i)) fail("a value was expected")
        i += word.length
        emit(word)
    }

    /** `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, written as its value ([CanonicalNumbers]); notes its topic. */
    private fun number() {
        val start = i
        if (at('-')) i++
        if (at('0')) i++ else if (i < text.length && text[i] in '1'..'9') digits() else fail("no digit after a minus sign")
        if (at('.')) {
            i++
            if (!(i < text.length && text[i] in '0'..'9')) fail("no digit after a decimal point")
            digits()
        }
        if (at('e') || at('E')) {
            i++
            if (at('+') || at('-')) i++
            if (!(i < text.length && text[i] in '0'..'9')) fail("no digit in an exponent")
            digits()
        }
        val literal = text.substring(start, i)
        emit(CanonicalNumbers.of(literal))
        if (findTopics) FindingTopics.ofNumber(literal)?.let { note(it, start) }
    }

    private fun digits() {
        while (i < text.length && text[i] in '0'..'9') i++
    }

    private fun skipWhitespace() {
        while (i < text.length && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) i++
    }

    /** Counts an instance of [topic] that starts at [offset]; the first keeps its JSON pointer (a key's: its member's). */
    private fun note(topic: String, offset: Int) {
        if (!findTopics) return
        topics[topic]?.let { it.add(offset); return }
        topics[topic] = Instance(topic, pointer(), offset)
    }

    /** RFC 6901: each key with `~` as `~0` and `/` as `~1`; an object's current key is the member being read. */
    private fun pointer(): String = buildString {
        for (k in kinds.indices) {
            append('/')
            if (kinds[k] == '{') append((names[k] ?: "").replace("~", "~0").replace("/", "~1")) else append(positions[k])
        }
    }

    private fun fail(what: String): Nothing = throw Invalid(what)

    companion object {
        /**
         * Scans [text]: the scan (depth, counts, and with [findTopics] the findings) and the digest of the canonical
         * form. A text that is not JSON throws [NotJson], placed as node-kit places it ([JsonSyntax.locate]) wherever
         * this scan stopped; a JSON text nested deeper than [maxDepth] throws [TooDeep]. Not JSON is told first: past
         * the cap the canonical form is no longer built, and the rest of the text's syntax is read by the same loop
         * that places errors, so a text that is both gets the answer every runtime gives it.
         */
        fun of(text: String, maxDepth: Int, findTopics: Boolean = true): Pair<JsonScan, Digest> {
            val scan = JsonScan(text, maxDepth, findTopics)
            val digest = try {
                scan.run()
            } catch (e: Invalid) {
                // The two readers are held to the same vectors; were they ever to disagree, the answer is still a 400.
                throw JsonSyntax.locate(text) ?: NotJson(e.message ?: "not JSON", 1, 1, text.take(48))
            } catch (e: PastCap) {
                throw JsonSyntax.locate(text) ?: TooDeep(JsonSyntax.nestingDepth(text))
            }
            return scan to digest
        }
    }
}
