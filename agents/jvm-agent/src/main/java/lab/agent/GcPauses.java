package lab.agent;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Every collection the collectors announce, counted twice from the same notification:
 * - the lab's `lab_gc_pause_seconds` by kind and `lab_gc_pause_max_seconds`, exactly as services/jvm-serializer's
 *   GcPauses.kt (same kinds, buckets and help): the dashboards and the load driver read these;
 * - OpenTelemetry's `jvm.gc.duration` (`jvm_gc_duration_seconds` by jvm_gc_name and jvm_gc_action, with the
 *   convention's advised buckets 0.01, 0.1, 1, 10 s), for tools that speak the conventions.
 * GcInfo's duration is in whole milliseconds, so a sub-millisecond young pause reads 0 (the first bucket). Under G1 a
 * concurrent cycle's remark and cleanup are announced only from Java 20 on ("G1 Concurrent GC"); ZGC and Shenandoah
 * announce their cycles ("ZGC Cycles"), which are mostly concurrent, beside their pauses: kind "other" or "major".
 */
final class GcPauses {
    // From a 0.1 ms young pause to a multi-second full collection; the Node services' and jvm-serializer's buckets.
    static final double[] BUCKETS = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0};
    // OpenTelemetry's advice for jvm.gc.duration.
    static final double[] OTEL_BUCKETS = {0.01, 0.1, 1.0, 10.0};

    private final Histogram pauses = new Histogram(MetricNames.GC_PAUSE,
        "Garbage collection pauses by kind (minor, major, other), from the collectors' notifications", List.of("kind"), BUCKETS);
    private final Histogram durations = new Histogram(MetricNames.OTEL_GC_DURATION,
        "Duration of JVM garbage collection actions (OpenTelemetry jvm.gc.duration)", List.of("jvm_gc_name", "jvm_gc_action"), OTEL_BUCKETS);
    private final AtomicLong longestNanos = new AtomicLong();

    GcPauses() {
        NotificationListener listener = (notification, handback) -> {
            if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) return;
            GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
            long nanos = info.getGcInfo().getDuration() * 1_000_000L;
            pauses.observe(nanos / 1e9, kindOf(info.getGcAction()));
            durations.observe(nanos / 1e9, info.getGcName(), info.getGcAction());
            longestNanos.accumulateAndGet(nanos, Math::max);
        };
        for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (bean instanceof NotificationEmitter) ((NotificationEmitter) bean).addNotificationListener(listener, null, null);
        }
    }

    /** "end of minor GC" -> minor, "end of major GC" -> major; anything a later JVM adds -> other. */
    static String kindOf(String action) {
        switch (action) {
            case "end of minor GC": return "minor";
            case "end of major GC": return "major";
            default: return "other";
        }
    }

    void writeTo(Exposition out) {
        pauses.writeTo(out);
        out.single(MetricNames.GC_PAUSE_MAX, "gauge", "The longest garbage collection pause since the last scrape (0 if none)",
            (out.scrape ? longestNanos.getAndSet(0) : longestNanos.get()) / 1e9);
        durations.writeTo(out);
    }
}
