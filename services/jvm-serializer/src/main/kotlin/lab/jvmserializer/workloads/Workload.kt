package lab.jvmserializer.workloads

import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import io.prometheus.metrics.model.registry.PrometheusRegistry

/** A benchmark the service hosts: its approaches (the first is the default), its parameters, and one run. */
interface Workload {
    val name: String
    val approaches: List<String>
    val params: List<Param>

    /** The metrics `case` label for these parameters: a bounded set (a document name), never a size. */
    fun caseOf(params: RunParams): String

    /**
     * How much of the service's run budget these parameters hold while they run: roughly proportional to the heap the
     * run needs, in the unit of [Config.runBudget] (objects for serde). A workload without a size weighs one.
     */
    fun weightOf(params: RunParams): Int = 1

    /**
     * Checks what no single parameter's range can say (serde: repeat × size within the run budget). Called by
     * [parseRunRequest] after every parameter parsed; throws a 400 [HttpError] naming the parameter and what is allowed.
     */
    fun checkParams(params: RunParams) {}

    /** Registers the workload's own metrics beside the contract's (LabServer calls it once per registry). */
    fun registerMetrics(registry: PrometheusRegistry) {}

    /** Runs once. Throws on failure; a wrong answer is a result with validated = false, not an exception. */
    fun run(request: RunRequest): RunResult

    fun describe(): JsonObject = buildJsonObject {
        put("approaches", strings(approaches))
        put("params", JsonObject(params.associate { it.name to it.describe() }))
        describeMore().forEach { (key, value) -> put(key, value) }
    }

    /** What a workload adds to its /info entry beside approaches and params (serde: its thread pool). */
    fun describeMore(): Map<String, JsonElement> = emptyMap()
}

/** What the contract's /run answer carries beside the request echo; [extra] holds the workload's own fields. */
data class RunResult(
    val ms: Double,
    val bytes: Long,
    val hash: String,
    val validated: Boolean,
    val reference: String,
    val extra: Map<String, JsonElement> = emptyMap(),
) {
    fun toJson(): Map<String, JsonElement> = mapOf(
        "ms" to JsonPrimitive(ms),
        "bytes" to JsonPrimitive(bytes),
        "hash" to JsonPrimitive(hash),
        "validated" to JsonPrimitive(validated),
        "reference" to JsonPrimitive(reference),
    ) + extra
}

/** Nanoseconds to milliseconds with microsecond resolution, the unit every /run answer reports. */
fun nanosToMs(nanos: Long): Double = nanosToMs(nanos.toDouble())

fun nanosToMs(nanos: Double): Double = Math.round(nanos / 1_000.0) / 1_000.0
