package lab.jvmserializer.metrics

import io.prometheus.metrics.core.metrics.Counter
import io.prometheus.metrics.core.metrics.GaugeWithCallback
import io.prometheus.metrics.core.metrics.Histogram
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics
import io.prometheus.metrics.model.registry.PrometheusRegistry
import lab.jvmserializer.http.RequestTarget
import java.io.ByteArrayOutputStream
import java.util.concurrent.atomic.AtomicLong

/** The contract's metric names (CONTRACT.md, "Metrics"), written once. */
object MetricNames {
    const val RUN_DURATION = "lab_run_duration_seconds"
    const val RUNS = "lab_runs_total"
    const val HTTP_DURATION = "http_request_duration_seconds"

    // Why the service stalls, named as the Node services name theirs (node-kit/metrics.js): GcPauses.kt.
    const val GC_PAUSE = "lab_gc_pause_seconds"
    const val GC_PAUSE_MAX = "lab_gc_pause_max_seconds"
    // The JVM's stand-in for an event loop's lag: how long a request's job waited for a handler thread
    // (http/ThreadWaitPool.kt), and the longest wait since the last scrape.
    const val THREAD_WAIT = "lab_http_thread_wait_seconds"
    const val THREAD_WAIT_MAX = "lab_http_thread_wait_max_seconds"
    // How the threads that ran /run requests spent those runs (RunThreadWatch.kt), the JVM's counterpart of the Node
    // services' lab_event_loop_cpu_wait_seconds_total: wall time, time on a CPU, time waiting for one.
    const val RUN_THREAD_WALL = "lab_run_thread_wall_seconds_total"
    const val RUN_THREAD_CPU = "lab_run_thread_cpu_seconds_total"
    const val RUN_THREAD_CPU_WAIT = "lab_run_thread_cpu_wait_seconds_total"

    // The serde workload's own (serde/SerdeMetrics.kt).
    const val SERDE_PHASE = "lab_serde_phase_seconds"
    const val SERDE_POOL_THREADS = "lab_serde_pool_threads"
    const val SERDE_POOL_BUSY = "lab_serde_pool_threads_busy"
}

/** Values of the `outcome` label of [MetricNames.RUNS]. */
enum class Outcome(val label: String) { OK("ok"), INVALID("invalid"), INTERRUPTED("interrupted"), ERROR("error") }

/**
 * The contract's metrics plus the Prometheus Java client's JVM and process defaults (process_cpu_seconds_total,
 * process_resident_memory_bytes, jvm_memory_*, jvm_gc_*...). Each server gets its own registry, so several servers in
 * one JVM (the tests) do not collide; the JVM defaults describe the one process either way.
 */
class LabMetrics(val registry: PrometheusRegistry = PrometheusRegistry()) : AutoCloseable {
    init {
        JvmMetrics.builder().register(registry)
    }

    private val gcPauses = GcPauses(registry)

    private val threadWait: Histogram = Histogram.builder()
        .name(MetricNames.THREAD_WAIT)
        .help("Time a job of the HTTP pool (reading and handling a request) waited for a thread: the JVM's stand-in for event-loop lag")
        .classicUpperBounds(*Buckets.WAIT)
        .register(registry)

    private val longestWaitNanos = AtomicLong()

    init {
        GaugeWithCallback.builder()
            .name(MetricNames.THREAD_WAIT_MAX)
            .help("The longest wait of a job of the HTTP pool for a thread since the last scrape (0 if none)")
            .callback { it.call(longestWaitNanos.getAndSet(0) / 1e9) }
            .register(registry)
    }

    val runDuration: Histogram = Histogram.builder()
        .name(MetricNames.RUN_DURATION)
        .help("Duration of the timed section of each validated run")
        .labelNames("workload", "approach", "case")
        .classicUpperBounds(*Buckets.RUN)
        .register(registry)

    val runs: Counter = Counter.builder()
        .name(MetricNames.RUNS)
        .help("Runs by outcome: ok, invalid (output differs from the reference), interrupted, error")
        .labelNames("workload", "approach", "outcome")
        .register(registry)

    // Added as each run ends, whatever its outcome (a multi-second run adds its seconds at once). The CPU and wait
    // counters exist only where ThreadClock can read them: a counter that stayed at 0 would say no run ever waited.
    private val runThreadWall: Counter = Counter.builder()
        .name(MetricNames.RUN_THREAD_WALL)
        .help("Seconds the threads running /run requests spent in their runs (wall time); the denominator of the two beside it")
        .register(registry)

    private val runThreadCpu: Counter? = if (!ThreadClock.cpuSupported) null else Counter.builder()
        .name(MetricNames.RUN_THREAD_CPU)
        .help("Seconds the threads running /run requests were on a CPU during their runs (ThreadMXBean)")
        .register(registry)

    private val runThreadCpuWait: Counter? = if (!ThreadClock.cpuWaitSupported) null else Counter.builder()
        .name(MetricNames.RUN_THREAD_CPU_WAIT)
        .help("Seconds the threads running /run requests were ready to run but waited for a CPU (their schedstat run-queue time); its rate is how many threads' worth the machine held up each second")
        .register(registry)

    private val httpDuration: Histogram = Histogram.builder()
        .name(MetricNames.HTTP_DURATION)
        .help("HTTP request duration by route pattern")
        .labelNames("method", "route", "status_code")
        .classicUpperBounds(*Buckets.HTTP)
        .register(registry)

    fun countRun(workload: String, approach: String, outcome: Outcome) =
        runs.labelValues(workload, approach, outcome.label).inc()

    /**
     * Times one request. Every label comes from a closed set, so no request can add a series of its own: [method] is
     * one of HTTP's methods or `other`, [route] a route pattern or, for a request no route took, `unmatched`.
     */
    fun observeHttp(method: String, route: String?, status: Int, seconds: Double) =
        httpDuration.labelValues(if (method in RequestTarget.METHODS) method else OTHER_METHOD, route ?: UNMATCHED, status.toString())
            .observe(seconds)

    /** One job's wait for a thread of the HTTP pool (ThreadWaitPool). */
    fun observeThreadWait(nanos: Long) {
        threadWait.observe(nanos / 1e9)
        longestWaitNanos.accumulateAndGet(nanos, ::maxOf)
    }

    /** How one run's thread spent the run (RunRoute, for every run). */
    fun observeRunThread(times: RunThreadTimes) {
        runThreadWall.inc(times.wallNanos / 1e9)
        times.cpuNanos?.let { runThreadCpu?.inc(it / 1e9) }
        times.cpuWaitNanos?.let { runThreadCpuWait?.inc(it / 1e9) }
    }

    /** Stops hearing the collectors' notifications. */
    override fun close() = gcPauses.close()

    /** Every metric in the Prometheus text format (version 0.0.4), as /metrics answers. */
    fun exposition(): ByteArray = ByteArrayOutputStream().also { TEXT_FORMAT.write(it, registry.scrape()) }.toByteArray()

    companion object {
        const val UNMATCHED = "unmatched"
        const val OTHER_METHOD = "other"
        private val TEXT_FORMAT: PrometheusTextFormatWriter = PrometheusTextFormatWriter.create()
        val CONTENT_TYPE: String = TEXT_FORMAT.contentType
    }

    private object Buckets {
        // The same buckets as the Node services, so dashboards compare like with like: runs span sub-millisecond
        // transfers to multi-second serializations.
        val RUN = doubleArrayOf(0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
        // A wait for a thread is as long as the run before it in the queue: from none to a multi-second run.
        val WAIT = doubleArrayOf(0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
        val HTTP = doubleArrayOf(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
    }
}
