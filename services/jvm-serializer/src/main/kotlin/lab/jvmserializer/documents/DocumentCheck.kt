package lab.jvmserializer.documents

import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import lab.jvmserializer.memory.DocumentShape

/**
 * A document approach's reading of a stored document, taken once at upload ([DocumentApproach.reading]): the sha256
 * of its text in canonical form ([JsonScan]), whether that departs from the document's own, or why it could not read
 * it at all ([error]).
 */
class Reading(val canonicalSha256: String?, val departs: Boolean, val error: String?)

/**
 * A topic where runtimes disagree, as PUT /documents reports it: the first instance, how many, what happens here;
 * [changedBy]: the approaches that did not keep the instance as the document has it (not reported: the detail says it).
 */
class Finding(val topic: String, val path: String, val count: Int, val detail: String, val changedBy: Set<String> = emptySet()) {
    fun toJson() = buildJsonObject {
        put("topic", topic)
        put("path", path)
        put("count", count)
        put("detail", detail)
    }
}

/**
 * What every run on a document is checked against, made at upload: the canonical form's sha256 ([reference]), each
 * approach's reading, and the findings. A run is validated when its text's canonical form equals its approach's
 * reading, and that reading either is the document's canonical form or departs from it where a finding shows this
 * approach changing the finding's instance ([explains]); a reading that departs with no such finding is unexplained,
 * and every run of that approach fails.
 */
class DocumentCheck(
    val depth: Int,
    /** What its trees and runs cost ([lab.jvmserializer.memory.MemoryModel]). */
    val shape: DocumentShape,
    val reference: String,
    val findings: List<Finding>,
    val readings: Map<String, Reading>,
) {
    /** The findings whose instance [approach] changed: what explains its reading's departure. */
    fun findingsOf(approach: String): List<Finding> = findings.filter { approach in it.changedBy }

    /** Whether [approach]'s reading is the document's, or departs where a finding shows it changing an instance. */
    fun explains(approach: String): Boolean = readings[approach]?.departs != true || findingsOf(approach).isNotEmpty()

    /** PUT /documents' `approaches`: per document approach, `same`, `departs` (with the topics) or `fails` (why). */
    fun describeReadings(): JsonObject = JsonObject(readings.mapValues { (name, r) ->
        buildJsonObject {
            when {
                r.error != null -> { put("reading", "fails"); put("error", r.error) }
                !explains(name) -> put("reading", "departs without a finding: its runs fail")
                r.departs -> { put("reading", "departs"); put("findings", JsonArray(findingsOf(name).map { JsonPrimitive(it.topic) })) }
                else -> put("reading", "same")
            }
        }
    })

    companion object {
        /**
         * Checks [text] (already known to be JSON within the depth cap: [scan]) with every approach of [approaches]:
         * each one's reading, and each finding's detail from running every approach on the finding's instances. An
         * approach named in [cannotRun] is not run at all (the heap cannot hold its run of the document: the reason);
         * its reading fails with that reason.
         */
        fun of(
            text: String,
            scan: JsonScan,
            shape: DocumentShape,
            reference: String,
            approaches: Map<String, DocumentApproach<*, *>>,
            cannotRun: Map<String, String> = emptyMap(),
        ): DocumentCheck {
            val readings = approaches.mapValues { (name, approach) ->
                val tooLarge = cannotRun[name]
                if (tooLarge != null) return@mapValues Reading(null, true, tooLarge)
                try {
                    val canonical = canonicalSha256(approach.reading(text))
                    Reading(canonical, canonical != reference, null)
                } catch (e: Exception) {
                    Reading(null, true, whyNot(e))
                } catch (e: StackOverflowError) {
                    Reading(null, true, "too deep for its recursion (stack overflow)")
                }
            }
            val runnable = approaches.filterKeys { it !in cannotRun }
            val findings = scan.findings().map { instance ->
                val outcome = FindingDetails.of(instance, text, runnable)
                Finding(instance.topic, instance.path, instance.count, outcome.detail, outcome.changedBy)
            }
            return DocumentCheck(scan.depth, shape, reference, findings, readings)
        }

        /** The sha256 of a JSON text's canonical form (an approach's output, read as the UTF-8 it was sent as). */
        fun canonicalSha256(utf8: ByteArray): String = JsonScan.of(String(utf8, Charsets.UTF_8), Int.MAX_VALUE, findTopics = false).second.sha256

        /** A library's message, first line only, capped: never a class name or a stack trace. */
        fun whyNot(e: Throwable): String = (e.message ?: "failed").lineSequence().first().take(200)
    }
}
