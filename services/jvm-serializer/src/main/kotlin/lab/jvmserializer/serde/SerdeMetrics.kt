package lab.jvmserializer.serde

import io.prometheus.metrics.core.metrics.GaugeWithCallback
import io.prometheus.metrics.core.metrics.Histogram
import io.prometheus.metrics.model.registry.PrometheusRegistry
import lab.jvmserializer.metrics.MetricNames

/**
 * The serde workload's metrics in one registry: each phase of each repetition of a validated run, and the shared
 * pool's size and load, read at scrape time. Every label is from a closed set: approach, phase, and the run's size
 * rounded down to a power of ten ([scaleOf]), never the size itself.
 */
class SerdeMetrics(registry: PrometheusRegistry, pool: SerdePool) {
    private val phase: Histogram = Histogram.builder()
        .name(MetricNames.SERDE_PHASE)
        .help("Time of one serialize or deserialize phase, per repetition of a validated serde run")
        .labelNames("approach", "phase", "scale")
        .classicUpperBounds(*PHASE_BUCKETS)
        .register(registry)

    init {
        GaugeWithCallback.builder()
            .name(MetricNames.SERDE_POOL_THREADS)
            .help("Threads of the pool json-multithreaded runs share (SERDE_THREADS)")
            .callback { it.call(pool.threads.toDouble()) }
            .register(registry)
        GaugeWithCallback.builder()
            .name(MetricNames.SERDE_POOL_BUSY)
            .help("Pool threads running a chunk now")
            .callback { it.call(pool.busyThreads().toDouble()) }
            .register(registry)
    }

    fun observe(approach: String, size: Int, trip: RoundTrip) {
        val scale = scaleOf(size)
        phase.labelValues(approach, SERIALIZE, scale).observe(trip.serializeNanos / 1e9)
        phase.labelValues(approach, DESERIALIZE, scale).observe(trip.deserializeNanos / 1e9)
    }

    companion object {
        const val SERIALIZE = "serialize"
        const val DESERIALIZE = "deserialize"

        /** "1", "10", ... "100000": the largest power of ten not above [size] (sizes are 1 … 100000). */
        fun scaleOf(size: Int): String {
            require(size >= 1) { "size must be positive, got $size" }
            var scale = 1
            while (scale <= size / 10) scale *= 10
            return scale.toString()
        }

        // A phase of the multithreaded-json experiment's sizes spans ~20 µs (10 objects) to ~1.5 s (100000): finer at
        // the bottom than the contract's run buckets, which start at 100 µs.
        private val PHASE_BUCKETS = doubleArrayOf(
            0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
            1.0, 2.5, 5.0, 10.0,
        )
    }
}
