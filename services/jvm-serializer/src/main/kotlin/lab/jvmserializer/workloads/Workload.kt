package lab.jvmserializer.workloads

import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put

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

    /** Runs once. Throws on failure; a wrong answer is a result with validated = false, not an exception. */
    fun run(request: RunRequest): RunResult

    fun describe(): JsonObject = buildJsonObject {
        put("approaches", strings(approaches))
        put("params", JsonObject(params.associate { it.name to it.describe() }))
    }
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
fun nanosToMs(nanos: Long): Double = Math.round(nanos / 1_000.0) / 1_000.0
