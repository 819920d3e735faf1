package lab.agent;

/** Every metric name the agent exports, written once. Units in the names, base units only. */
final class MetricNames {
    private MetricNames() {
    }

    // The lab's names, as services/jvm-serializer exports them (metrics/LabMetrics.kt, GcPauses.kt) and the load
    // driver reads them.
    static final String GC_PAUSE = "lab_gc_pause_seconds";
    static final String GC_PAUSE_MAX = "lab_gc_pause_max_seconds";
    static final String SAFEPOINT = "lab_jvm_safepoint_seconds";
    static final String SAFEPOINT_MAX = "lab_jvm_safepoint_max_seconds";
    static final String THREAD_CPU = "lab_jvm_thread_cpu_seconds_total";
    static final String HEAP_USED = "lab_jvm_heap_used_bytes";
    static final String HEAP_COMMITTED = "lab_jvm_heap_committed_bytes";
    static final String HEAP_MAX = "lab_jvm_heap_max_bytes";
    static final String AGENT_INFO = "lab_agent_info";
    // Prometheus' process and JVM names (the Java client's), as jvm-serializer exports them.
    static final String PROCESS_CPU = "process_cpu_seconds_total";
    static final String PROCESS_RSS = "process_resident_memory_bytes";
    static final String PROCESS_START = "process_start_time_seconds";
    static final String THREADS_LIVE = "jvm_threads_live";

    // OpenTelemetry's semantic conventions for JVM metrics (jvm.gc.duration, jvm.memory.used, ...) written as
    // Prometheus names: dots to underscores, the unit appended (s -> _seconds, By -> _bytes), counters end in _total,
    // annotation units ({thread}, {class}, {cpu}) dropped; attributes become labels the same way.
    static final String OTEL_GC_DURATION = "jvm_gc_duration_seconds";
    static final String OTEL_MEMORY_USED = "jvm_memory_used_bytes";
    static final String OTEL_MEMORY_COMMITTED = "jvm_memory_committed_bytes";
    static final String OTEL_MEMORY_LIMIT = "jvm_memory_limit_bytes";
    static final String OTEL_THREAD_COUNT = "jvm_thread_count";
    static final String OTEL_CPU_TIME = "jvm_cpu_time_seconds_total";
    static final String OTEL_CPU_COUNT = "jvm_cpu_count";
    static final String OTEL_CLASS_COUNT = "jvm_class_count";
}
