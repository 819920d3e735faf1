package lab.jvmserializer.serde

import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import lab.jvmserializer.workloads.nanosToMs
import kotlin.math.ceil

/**
 * One phase's times over a run's repetitions, in milliseconds: the mean (the multithreaded-json experiment's figure),
 * the median (the mean of the two middle values for an even count), the minimum and the 95th percentile by nearest rank
 * (the smallest value with at least 95 % of the values at or below it, so with fewer than 20 repetitions it is the
 * maximum).
 */
data class PhaseStats(val meanMs: Double, val medianMs: Double, val minMs: Double, val p95Ms: Double) {
    fun toJson() = JsonObject(mapOf(
        "meanMs" to JsonPrimitive(meanMs),
        "medianMs" to JsonPrimitive(medianMs),
        "minMs" to JsonPrimitive(minMs),
        "p95Ms" to JsonPrimitive(p95Ms),
    ))

    companion object {
        fun of(nanos: List<Long>): PhaseStats {
            require(nanos.isNotEmpty()) { "no repetitions" }
            val sorted = nanos.sorted()
            val n = sorted.size
            val median = if (n % 2 == 1) sorted[n / 2].toDouble() else (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
            return PhaseStats(
                meanMs = nanosToMs(sorted.average()),
                medianMs = nanosToMs(median),
                minMs = nanosToMs(sorted.first().toDouble()),
                p95Ms = nanosToMs(sorted[ceil(0.95 * n).toInt() - 1].toDouble()),
            )
        }
    }
}
