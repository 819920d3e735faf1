package lab.jvmserializer.documents

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonPrimitive

/**
 * A container of a JSON text as json-multithreaded may split it: its brackets' indices, whether it is an object, its
 * top-level members, and [splittableChars], the characters of its members less its largest member's (chunks can share
 * all of a container's text but its largest member, which one chunk must take whole). [cuts]: indices of top-level
 * commas, in order, that cut its members into chunks of about the length asked. [charsVisited]: the characters the
 * scan covered, one at a time or as a string's span up to its closing quote: the text's length exactly when each is
 * covered once (one pass; tests count it). Only the backslashes before a string's quote are read twice.
 */
class Bulk(
    val open: Int,
    val close: Int,
    val isObject: Boolean,
    val members: Int,
    val splittableChars: Int,
    val textChars: Int,
    val cuts: IntArray,
    val charsVisited: Int,
) {
    /** The part of the whole text that chunks can share. */
    val share: Double get() = if (textChars == 0) 0.0 else splittableChars.toDouble() / textChars

    /** The chunks its [cuts] make. */
    val chunks: Int get() = cuts.size + 1
}

/** One step from a container to a member: an array's index or an object's key (as the text spells it, quoted). */
sealed class PathStep {
    class Index(val index: Int) : PathStep()
    class Key(val quoted: String) : PathStep() {
        /** The key as kotlinx reads it (escapes resolved). */
        val name: String get() = (Json.parseToJsonElement(quoted) as JsonPrimitive).content
    }
}

/**
 * Where a JSON text's bulk is, for json-multithreaded: the container (array or object) with at least two members
 * whose members hold the most text that chunks can share ([Bulk.splittableChars]). Counting the largest member out is
 * what makes the rule find `versions` in an npm packument: the packument's own object holds all its text, but in one
 * member, `versions`, whose thousands of members hold nearly as much in small pieces. Nothing is parsed: the scan only
 * tracks strings (`\` escapes the next character) and nesting, and checks nothing, as [lab.jvmserializer.serde.JsonArrayBoundaries].
 */
object JsonBulk {
    /** Containers nested deeper than this are never chosen (a document's bulk is near its top). */
    private const val MAX_TRACKED_DEPTH = 64

    /**
     * The bulk of [text] by one scan, or null when no container has two members. Every container's members are cut
     * as the scan goes, at the first top-level comma [cutEvery] characters or more past the last cut (or its opening
     * bracket), so the chosen one's chunks are known when the scan ends: no second pass cuts them. A text that is not
     * JSON gives some answer or none, never an exception: the caller's parsers refuse it.
     */
    fun find(text: String, cutEvery: Int): Bulk? {
        val opens = IntArray(MAX_TRACKED_DEPTH)
        val commas = IntArray(MAX_TRACKED_DEPTH)
        val memberStarts = IntArray(MAX_TRACKED_DEPTH)
        val largest = IntArray(MAX_TRACKED_DEPTH)
        val lastCuts = IntArray(MAX_TRACKED_DEPTH)
        val cuts = Array(MAX_TRACKED_DEPTH) { IntArray(8) }
        val cutCounts = IntArray(MAX_TRACKED_DEPTH)
        var depth = 0
        var best: Bulk? = null
        var visited = 0
        var i = 0
        while (i < text.length) {
            visited++
            when (text[i]) {
                '"' -> {
                    // To the closing quote by String.indexOf (vectorized in the JDK), as kotlinx's lexer does: a
                    // character at a time, the scan cost most of a whole parse.
                    var end = text.indexOf('"', i + 1)
                    while (end > 0 && isEscaped(text, end)) end = text.indexOf('"', end + 1)
                    if (end < 0) end = text.length - 1
                    visited += end - i
                    i = end
                }
                '[', '{' -> {
                    if (depth in 0 until MAX_TRACKED_DEPTH) {
                        opens[depth] = i
                        commas[depth] = 0
                        memberStarts[depth] = i + 1
                        largest[depth] = 0
                        lastCuts[depth] = i
                        cutCounts[depth] = 0
                    }
                    depth++
                }
                ']', '}' -> {
                    depth--
                    // A container with a top-level comma holds two members or more (the text is JSON: checked at upload).
                    if (depth in 0 until MAX_TRACKED_DEPTH && commas[depth] > 0) {
                        val content = i - opens[depth] - 1
                        val splittable = content - maxOf(largest[depth], i - memberStarts[depth])
                        if (best == null || splittable > best.splittableChars) {
                            best = Bulk(opens[depth], i, text[i] == '}', commas[depth] + 1, splittable, text.length,
                                cuts[depth].copyOf(cutCounts[depth]), 0)
                        }
                    }
                }
                ',' -> if (depth in 1..MAX_TRACKED_DEPTH) {
                    val d = depth - 1
                    largest[d] = maxOf(largest[d], i - memberStarts[d])
                    commas[d]++
                    memberStarts[d] = i + 1
                    if (i - lastCuts[d] >= cutEvery) {
                        if (cutCounts[d] == cuts[d].size) cuts[d] = cuts[d].copyOf(cuts[d].size * 2)
                        cuts[d][cutCounts[d]++] = i
                        lastCuts[d] = i
                    }
                }
            }
            i++
        }
        return best?.let { Bulk(it.open, it.close, it.isObject, it.members, it.splittableChars, it.textChars, it.cuts, visited) }
    }

    /** Whether the quote at [quote] is escaped: an odd run of backslashes before it (rare; they are read again). */
    private fun isEscaped(text: String, quote: Int): Boolean {
        var k = quote - 1
        while (text[k] == '\\') k--
        return (quote - 1 - k) % 2 == 1
    }

    /**
     * The steps from the text's root to the value starting at [at] (a container's opening bracket [find] gave), by a
     * scan of the text before it; for a choice made once per document, not per repetition.
     */
    fun pathTo(text: String, at: Int): List<PathStep> {
        class Frame(val isObject: Boolean) {
            var index = 0
            var key = ""
            var expectsKey = isObject // an object's first string after `{` or `,` is its member's key
        }
        val frames = ArrayList<Frame>()
        var i = 0
        while (i < at) {
            when (text[i]) {
                '"' -> {
                    val start = i
                    i++
                    while (text[i] != '"') i += if (text[i] == '\\') 2 else 1
                    frames.lastOrNull()?.takeIf { it.expectsKey }?.let {
                        it.key = text.substring(start, i + 1)
                        it.expectsKey = false
                    }
                }
                '[', '{' -> frames += Frame(text[i] == '{')
                ']', '}' -> frames.removeLast()
                ',' -> frames.last().let {
                    it.index++
                    it.expectsKey = it.isObject
                }
            }
            i++
        }
        return frames.map { if (it.isObject) PathStep.Key(it.key) else PathStep.Index(it.index) }
    }

    /** RFC 6901's JSON pointer of [steps] (what the findings' `path` is): `~` as `~0`, `/` as `~1`. */
    fun pointer(steps: List<PathStep>): String = steps.joinToString("") { step ->
        when (step) {
            is PathStep.Index -> "/${step.index}"
            is PathStep.Key -> "/" + step.name.replace("~", "~0").replace("/", "~1")
        }
    }
}
