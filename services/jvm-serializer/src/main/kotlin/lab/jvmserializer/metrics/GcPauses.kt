package lab.jvmserializer.metrics

import com.sun.management.GarbageCollectionNotificationInfo
import io.prometheus.metrics.core.metrics.GaugeWithCallback
import io.prometheus.metrics.core.metrics.Histogram
import io.prometheus.metrics.model.registry.PrometheusRegistry
import java.lang.management.ManagementFactory
import java.util.concurrent.atomic.AtomicLong
import javax.management.NotificationEmitter
import javax.management.NotificationListener
import javax.management.openmbean.CompositeData

/**
 * Every stop-the-world collection, as the Node services count theirs (node-kit/runtime-metrics.js, the same names and
 * buckets): a histogram by kind and the longest pause since the last scrape, from the collectors' notifications. The
 * Java client's jvm_gc_collection_seconds (kept, from [io.prometheus.metrics.instrumentation.jvm.JvmMetrics]) is a
 * summary without quantiles: it gives neither a p99 nor the longest pause, nor when it was.
 *
 * Under G1 (the service's collector, Makefile's JAVA_OPTS) a "G1 Young Generation" collection (young or mixed) and a
 * "G1 Old Generation" one (full) stop every thread for their whole duration. The remark and cleanup pauses of a
 * concurrent cycle are reported only from Java 20 on ("G1 Concurrent GC"); on Java 17 they are not counted. GcInfo's
 * duration is in whole milliseconds, so a sub-millisecond young pause reads 0 (it lands in the first bucket).
 */
class GcPauses(registry: PrometheusRegistry) : AutoCloseable {
    private val pauses: Histogram = Histogram.builder()
        .name(MetricNames.GC_PAUSE)
        .help("Garbage collection pauses by kind (minor, major, other), from the collectors' notifications")
        .labelNames("kind")
        .classicUpperBounds(*BUCKETS)
        .register(registry)

    private val longestNanos = AtomicLong()

    init {
        GaugeWithCallback.builder()
            .name(MetricNames.GC_PAUSE_MAX)
            .help("The longest garbage collection pause since the last scrape (0 if none)")
            .callback { it.call(longestNanos.getAndSet(0) / 1e9) }
            .register(registry)
    }

    private val listener = NotificationListener { notification, _ ->
        if (notification.type == GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION) {
            val info = GarbageCollectionNotificationInfo.from(notification.userData as CompositeData)
            observe(kindOf(info.gcAction), info.gcInfo.duration * 1_000_000L)
        }
    }

    private val emitters = ManagementFactory.getGarbageCollectorMXBeans().filterIsInstance<NotificationEmitter>()
        .onEach { it.addNotificationListener(listener, null, null) }

    private fun observe(kind: String, nanos: Long) {
        pauses.labelValues(kind).observe(nanos / 1e9)
        longestNanos.accumulateAndGet(nanos, ::maxOf)
    }

    /** Stops listening (the tests start many servers in one JVM; each registry hears only while its server lives). */
    override fun close() = emitters.forEach { it.removeNotificationListener(listener) }

    companion object {
        /** "end of minor GC" -> minor, "end of major GC" -> major; anything a later JVM adds -> other. */
        fun kindOf(action: String): String = when (action) {
            "end of minor GC" -> "minor"
            "end of major GC" -> "major"
            else -> "other"
        }

        // From a 0.1 ms young pause to a multi-second full collection of the 3 GiB heap; the Node services' buckets.
        val BUCKETS = doubleArrayOf(0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
    }
}
