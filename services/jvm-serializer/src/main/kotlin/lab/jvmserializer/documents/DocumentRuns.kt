package lab.jvmserializer.documents

import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonPrimitive
import lab.jvmserializer.memory.MemoryBudget
import lab.jvmserializer.payloads.Digest
import lab.jvmserializer.payloads.digestOf
import lab.jvmserializer.serde.MultithreadedJsonApproach
import lab.jvmserializer.serde.PhaseStats
import lab.jvmserializer.workloads.HttpError
import lab.jvmserializer.workloads.RunResult
import lab.jvmserializer.workloads.nanosToMs
import lab.jvmserializer.workloads.strings

/**
 * `serde` on a user's document: `repeat` timed round trips of [approaches]' one, every repetition checked against the
 * approach's reading taken at upload ([DocumentCheck]). A run first holds its share of the [budget] (its approach's
 * memory model on the document's shape: the decoded tree and the round trip's buffers), and its input tree, made before
 * any timing, holds its own while it is kept ([PreparedInputs]): a run the heap cannot take now is a 503, never an
 * OutOfMemoryError midway. Each repetition keeps only its digests, so `repeat` costs no memory.
 */
class DocumentRuns(val store: DocumentStore, val approaches: Map<String, DocumentApproach<*, *>>, private val budget: MemoryBudget) {
    private val inputs = PreparedInputs(budget)

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
            val trips = ArrayList<Checked>(repeat)
            var described = emptyMap<String, JsonElement>()
            budget.reserve(approach.memory.transientBytes(check.shape), "a $approachName run on this document").use {
                inputs.take(approach, held.document).use { prepared ->
                    described = approach.describeInput(prepared.input)
                    repeat(repeat) {
                        if (Thread.interrupted()) throw InterruptedException("interrupted between repetitions")
                        val trip = approach.roundTrip(prepared.input)
                        trips += Checked(digestOf(trip.wire), DocumentCheck.canonicalSha256(trip.text), trip.serializeNanos, trip.deserializeNanos)
                    }
                }
            }
            // A reading that departs is accepted only where a finding shows this approach changing one of its instances.
            val explained = check.explains(approachName)
            val valid = trips.map { explained && it.canonical == reading.canonicalSha256 }
            val shown = valid.indexOf(false).takeIf { it >= 0 } ?: 0
            val wire = trips[shown].wire
            val serialize = PhaseStats.of(trips.map { it.serializeNanos })
            val deserialize = PhaseStats.of(trips.map { it.deserializeNanos })
            val extra = mutableMapOf<String, JsonElement>(
                "serializeMs" to JsonPrimitive(serialize.meanMs),
                "deserializeMs" to JsonPrimitive(deserialize.meanMs),
                "stats" to kotlinx.serialization.json.JsonObject(mapOf("serialize" to serialize.toJson(), "deserialize" to deserialize.toJson())),
                "textSha256" to JsonPrimitive(trips[shown].canonical),
            )
            extra.putAll(described)
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

    /** A repetition as checked: the wire's digest, the canonical sha256 of its text, each phase's time. */
    private class Checked(val wire: Digest, val canonical: String, val serializeNanos: Long, val deserializeNanos: Long)

    companion object {
        /** The run's text, in canonical form, is the document's ([JsonScan]). */
        const val REFERENCE_CANONICAL = "canonical-document"

        /** It is the approach's reading at upload, which departs from the document where `findings` say. */
        const val REFERENCE_READING = "upload-reading"
    }
}
