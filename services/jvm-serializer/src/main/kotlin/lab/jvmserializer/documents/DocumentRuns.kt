package lab.jvmserializer.documents

import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonPrimitive
import lab.jvmserializer.payloads.digestOf
import lab.jvmserializer.serde.MultithreadedJsonApproach
import lab.jvmserializer.serde.PhaseStats
import lab.jvmserializer.workloads.HttpError
import lab.jvmserializer.workloads.RunResult
import lab.jvmserializer.workloads.nanosToMs
import lab.jvmserializer.workloads.strings

/**
 * `serde` on a user's document: `repeat` timed round trips of [approaches]' one, every repetition checked against the
 * approach's reading taken at upload ([DocumentCheck]). The prepared input (a tree) is made before any timing and the
 * last one is kept: the try suite runs one approach after another on one document, and one tree at a time is what
 * the heap can spare for a 64 MB document.
 */
class DocumentRuns(val store: DocumentStore, val approaches: Map<String, DocumentApproach<*, *>>) {
    private var lastInput: Triple<String, String, Any>? = null // (inputKind, sha256, input)

    /** The run budget's weight of a document run: its text in objects' worth of JSON (payloads/SPEC.md's ~1348 bytes). */
    fun weightOf(sha256: String): Int = maxOf(1, (store.bytesOf(sha256) ?: 0) / MultithreadedJsonApproach.SPEC_OBJECT_CHARS)

    fun run(approachName: String, sha256: String, repeat: Int): RunResult {
        val approach = approaches[approachName] ?: throw HttpError(400,
            "$approachName cannot run a user's document (README, \"Users' documents\"): it works on the spec's objects only",
            mapOf("parameter" to JsonPrimitive("approach"), "allowed" to strings(approaches.keys.toList())))
        store.hold(sha256).use { held ->
            val check = held.document.check
            val reading = check.readings.getValue(approachName)
            if (reading.error != null) {
                throw HttpError(400, "$approachName cannot take document $sha256: ${reading.error}", mapOf(
                    "parameter" to JsonPrimitive("approach"),
                    "allowed" to strings(check.readings.filterValues { it.error == null }.keys.toList())))
            }
            val input = inputFor(approach, held.document)
            val trips = ArrayList<DocumentTrip>(repeat)
            val canonical = ArrayList<String>(repeat)
            repeat(repeat) {
                if (Thread.interrupted()) throw InterruptedException("interrupted between repetitions")
                val trip = approach.roundTrip(input)
                trips += trip
                canonical += DocumentCheck.canonicalSha256(trip.text)
            }
            // A reading that departs is accepted only where a finding shows this approach changing its instance.
            val explained = check.explains(approachName)
            val valid = canonical.map { explained && it == reading.canonicalSha256 }
            val shown = valid.indexOf(false).takeIf { it >= 0 } ?: 0
            val wire = digestOf(trips[shown].wire)
            val serialize = PhaseStats.of(trips.map { it.serializeNanos })
            val deserialize = PhaseStats.of(trips.map { it.deserializeNanos })
            val extra = mutableMapOf<String, JsonElement>(
                "serializeMs" to JsonPrimitive(serialize.meanMs),
                "deserializeMs" to JsonPrimitive(deserialize.meanMs),
                "stats" to kotlinx.serialization.json.JsonObject(mapOf("serialize" to serialize.toJson(), "deserialize" to deserialize.toJson())),
                "textSha256" to JsonPrimitive(canonical[shown]),
            )
            if (reading.departs) extra["findings"] = JsonArray(check.findingsOf(approachName).map { it.toJson() })
            return RunResult(
                ms = nanosToMs(trips.map { it.serializeNanos + it.deserializeNanos }.average()),
                bytes = wire.bytes,
                hash = wire.sha256,
                validated = valid.all { it },
                reference = if (reading.departs) REFERENCE_READING else REFERENCE_CANONICAL,
                extra = extra,
            )
        }
    }

    @Synchronized
    private fun inputFor(approach: DocumentApproach<*, *>, document: UserDocument): Any {
        lastInput?.let { (kind, sha256, input) -> if (kind == approach.inputKind && sha256 == document.sha256) return input }
        lastInput = null // the old tree is garbage before the new one is built
        return approach.prepare(document.text).also { lastInput = Triple(approach.inputKind, document.sha256, it) }
    }

    companion object {
        /** The run's text, in canonical form, is the document's ([JsonScan]). */
        const val REFERENCE_CANONICAL = "canonical-document"

        /** It is the approach's reading at upload, which departs from the document where `findings` say. */
        const val REFERENCE_READING = "upload-reading"
    }
}
