package lab.jvmserializer.documents

/**
 * What this runtime's approaches do with a finding's first instance, found by running them, never assumed: each
 * approach reads a small document made of the instance (a number literal as `[n]`, a duplicated key as
 * `{"k":1,"k":2}`, a lone surrogate as `["\ud800"]`) and writes it back; approaches that wrote the same are named
 * together. Library upgrades change these answers, and the answers follow.
 */
object FindingDetails {
    /** The detail in words, and the approaches that changed the instance (wrote it otherwise, or refused it). */
    class Outcome(val detail: String, val changedBy: Set<String>)

    fun of(topic: String, token: String, approaches: Map<String, DocumentApproach<*, *>>): Outcome {
        val probe = when (topic) {
            JsonScan.DUPLICATE_KEY -> "{$token:1,$token:2}"
            JsonScan.LONE_SURROGATE -> "[\"$token\"]"
            else -> "[$token]"
        }
        val outcomes = LinkedHashMap<String, MutableList<String>>()
        val changedBy = HashSet<String>()
        for ((name, approach) in approaches) {
            val outcome = try {
                val written = String(approach.reading(probe), Charsets.UTF_8)
                val meaning = meaning(topic, written, token)
                if (meaning !in KEPT) changedBy += name
                "write ${shorten(written)}$meaning"
            } catch (e: Exception) {
                changedBy += name
                "refuse it (${DocumentCheck.whyNot(e)})"
            }
            outcomes.getOrPut(outcome) { ArrayList() } += name
        }
        val said = outcomes.entries.joinToString("; ") { (outcome, names) -> "${names.joinToString(", ")} $outcome" }
        return Outcome("${shorten(probe)} read and written back here: $said", changedBy)
    }

    // What leaves the instance as the document has it: an approach that did this departs for another reason.
    private val KEPT = setOf(" (as written)", " (kept, escaped)", " (both kept)")

    /** Plain words for what the written text means, where the text alone does not say it. */
    private fun meaning(topic: String, written: String, token: String): String = when (topic) {
        JsonScan.DUPLICATE_KEY -> when {
            written.contains(":2") && !written.contains(":1") -> " (the last value wins)"
            written.contains(":1") && !written.contains(":2") -> " (the first value wins)"
            else -> " (both kept)"
        }
        JsonScan.LONE_SURROGATE -> if (written.contains(token, ignoreCase = true)) " (kept, escaped)" else " (replaced: the character is lost)"
        else -> if (written == "[$token]") " (as written)" else " (rewritten)"
    }

    private fun shorten(s: String) = if (s.length <= 80) s else s.take(77) + "..."
}
