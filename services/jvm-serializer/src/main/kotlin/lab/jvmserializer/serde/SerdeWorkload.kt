package lab.jvmserializer.serde

import kotlinx.serialization.json.JsonPrimitive
import lab.jvmserializer.payloads.DocumentNames
import lab.jvmserializer.workloads.IntParam
import lab.jvmserializer.workloads.NamedParam
import lab.jvmserializer.workloads.RunRequest
import lab.jvmserializer.workloads.RunParams
import lab.jvmserializer.workloads.RunResult
import lab.jvmserializer.workloads.Workload
import lab.jvmserializer.workloads.nanosToMs

/**
 * Seed 002: a serialize + deserialize round trip of the spec's `objects` document. Adding an approach (multithreaded
 * Json, CBOR) is one entry in [APPROACHES].
 */
class SerdeWorkload(private val inputs: ObjectsInputs) : Workload {
    override val name = "serde"
    override val approaches = APPROACHES.keys.toList()
    override val params = listOf(
        NamedParam("document", DocumentNames.OBJECTS, listOf(DocumentNames.OBJECTS)),
        // The cap bounds one run's heap: see the README's memory math before raising it.
        IntParam("size", default = 1000, min = 1, max = 100_000),
        IntParam("seed", default = 1, min = 0, max = Int.MAX_VALUE),
    )

    override fun caseOf(params: RunParams): String = params.string("document")

    override fun weightOf(params: RunParams): Int = params.int("size")

    override fun run(request: RunRequest): RunResult {
        val approach = APPROACHES.getValue(request.approach)
        val input = inputs.get(request.params.int("seed"), request.params.int("size"))
        val trip = approach.roundTrip(input.objects)
        val serializeMs = nanosToMs(trip.serializeNanos)
        val deserializeMs = nanosToMs(trip.deserializeNanos)
        return RunResult(
            ms = nanosToMs(trip.serializeNanos + trip.deserializeNanos),
            bytes = trip.digest.bytes,
            hash = trip.digest.sha256,
            validated = trip.digest.sha256 == input.referenceHash && trip.decodedEqualsInput,
            reference = input.reference,
            extra = mapOf("serializeMs" to JsonPrimitive(serializeMs), "deserializeMs" to JsonPrimitive(deserializeMs)),
        )
    }

    companion object {
        val APPROACHES: Map<String, SerdeApproach<*>> = linkedMapOf(
            "json" to JsonApproach(),
        )
    }
}
