package lab.jvmserializer.documents

import lab.jvmserializer.serde.JsonArrayBoundaries

/**
 * What this runtime's approaches do with a finding's instances, found by running them, never assumed: each approach
 * reads a probe made of the instances (a number literal as itself, a string with a lone surrogate as itself, a
 * repeated key as `{"k":1,"k":2}`), one array of them all, and writes it back. An approach changed the topic when its
 * text, in canonical form, is not the probe's, or it refused the probe. Every instance is probed, not only the first:
 * kotlinx keeps 9007199254740993 (it fits a Long) but rewrites 123456789012345678901234567890 as a double, and a
 * document holding both departs where the second stands. Library upgrades change these answers, and the answers follow.
 */
object FindingDetails {
    /** The detail in words, and the approaches that changed an instance (wrote it otherwise, or refused it). */
    class Outcome(val detail: String, val changedBy: Set<String>)

    /** A repeated key's probe holds each distinct key once, up to this many characters: the probe stays small. */
    private const val MAX_KEY_PROBE_CHARS = 1 shl 16

    fun of(instance: Instance, text: String, approaches: Map<String, DocumentApproach<*, *>>): Outcome {
        val elements = probeElements(instance, text)
        val probe = elements.joinToString(",", "[", "]")
        val probeCanonical = canonical(probe)
        val outcomes = LinkedHashMap<String, MutableList<String>>()
        val changedBy = HashSet<String>()
        for ((name, approach) in approaches) {
            val outcome = try {
                val written = String(approach.reading(probe), Charsets.UTF_8)
                if (canonical(written) == probeCanonical) {
                    "write ${shorten(firstElement(written))}${kept(instance.topic, firstElement(written), elements[0])}"
                } else {
                    changedBy += name
                    describeChange(instance.topic, elements, JsonArrayBoundaries.elements(written))
                }
            } catch (e: Exception) {
                changedBy += name
                describeRefusal(elements, approach)
            }
            outcomes.getOrPut(outcome) { ArrayList() } += name
        }
        val said = outcomes.entries.joinToString("; ") { (outcome, names) -> "${names.joinToString(", ")} $outcome" }
        val probed = if (elements.size == 1) shorten("[${elements[0]}]") else "${elements.size} instances, the first ${shorten("[${elements[0]}]")},"
        return Outcome("$probed read and written back here: $said", changedBy)
    }

    private fun probeElements(instance: Instance, text: String): List<String> {
        if (instance.topic != FindingTopics.DUPLICATE_KEY) return instance.tokens(text).toList()
        val keys = LinkedHashSet<String>()
        var chars = 0
        for (key in instance.tokens(text)) {
            if (chars >= MAX_KEY_PROBE_CHARS) break
            if (keys.add(key)) chars += 2 * key.length + 8
        }
        return keys.map { "{$it:1,$it:2}" }
    }

    /** The first instance whose canonical form the approach's text changed, in words. */
    private fun describeChange(topic: String, probe: List<String>, written: List<String>): String {
        val at = probe.indices.firstOrNull { it >= written.size || canonical(written[it]) != canonical(probe[it]) } ?: 0
        val what = written.getOrNull(at)?.let { "write ${shorten(it)}${changed(topic, it)}" } ?: "drop it"
        return if (at == 0) what else "$what for ${shorten(probe[at])}"
    }

    /** A refusal of the whole probe, said of the first instance the approach refuses alone (distinct ones tried). */
    private fun describeRefusal(probe: List<String>, approach: DocumentApproach<*, *>): String {
        for ((index, element) in probe.distinct().withIndex()) {
            val why = try {
                approach.reading("[$element]")
                null
            } catch (e: Exception) {
                DocumentCheck.whyNot(e)
            }
            if (why != null) return if (index == 0) "refuse it ($why)" else "refuse ${shorten(element)} ($why)"
        }
        return "refuse them together"
    }

    private fun firstElement(written: String) = JsonArrayBoundaries.elements(written).firstOrNull() ?: written

    private fun canonical(text: String) = JsonScan.of(text, Int.MAX_VALUE, findTopics = false).second.sha256

    /** Plain words for an instance the approach kept (its canonical form unchanged). */
    private fun kept(topic: String, written: String, probe: String): String = when {
        topic == FindingTopics.DUPLICATE_KEY -> " (both kept)"
        written == probe -> " (as written)"
        topic == FindingTopics.LONE_SURROGATE -> " (kept, escaped)"
        else -> " (the same value, spelled otherwise)"
    }

    /** Plain words for what a changed instance became, where the text alone does not say it. */
    private fun changed(topic: String, written: String): String = when (topic) {
        FindingTopics.DUPLICATE_KEY -> when {
            written.contains(":2") && !written.contains(":1") -> " (the last value wins)"
            written.contains(":1") && !written.contains(":2") -> " (the first value wins)"
            else -> " (rewritten)"
        }
        FindingTopics.LONE_SURROGATE -> " (replaced: the character is lost)"
        else -> " (rewritten)"
    }

    private fun shorten(s: String) = if (s.length <= 80) s else s.take(77) + "..."
}
