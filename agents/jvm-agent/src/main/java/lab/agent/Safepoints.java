package lab.agent;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.consumer.RecordingStream;

/**
 * The JVM's safepoints from JDK Flight Recorder's `jdk.SafepointBegin` events, streamed as they are flushed (about once
 * a second): `lab_jvm_safepoint_seconds` and the longest since the last scrape. The JDK offers safepoint time nowhere
 * else but sun.management's internal HotspotRuntimeMBean (an --add-exports on the user's command line).
 *
 * A SafepointBegin event lasts from the request for a safepoint until every thread has stopped and the cleanup is done,
 * just before the VM operation runs: the time-to-safepoint that stalls the application beyond the operation itself.
 * The operation (a GC's pause, a deoptimization) is not in it, so a GC pause is not counted twice with
 * lab_gc_pause_seconds; it is the same measure as POST /profile's `safepoints`, which reads the same events.
 * The stream enables that one event, without stack traces: JFR's background threads flush a few hundred bytes a second.
 */
final class Safepoints implements AutoCloseable {
    static final String EVENT = "jdk.SafepointBegin";
    // Time-to-safepoint is usually tens of microseconds; a thread in a long counted loop can hold one for many ms.
    static final double[] BUCKETS = {0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0};

    private final Histogram safepoints = new Histogram(MetricNames.SAFEPOINT,
        "Time from a safepoint's request until every thread stopped and its cleanup ran (JFR jdk.SafepointBegin), the VM operation excluded",
        List.of(), BUCKETS);
    private final AtomicLong longestNanos = new AtomicLong();
    private final RecordingStream stream;

    Safepoints() {
        stream = new RecordingStream();
        stream.enable(EVENT).withoutThreshold().withoutStackTrace();
        // What the stream keeps on disk after it read it: little, and not for long.
        stream.setMaxAge(java.time.Duration.ofSeconds(30));
        stream.setMaxSize(4L * 1024 * 1024);
        stream.onEvent(EVENT, event -> {
            long nanos = event.getDuration().toNanos();
            safepoints.observe(nanos / 1e9);
            longestNanos.accumulateAndGet(nanos, Math::max);
        });
        // Not startAsync(): its "JFR Event Stream" thread is not a daemon and would keep the JVM alive after main
        // returns (found by AgentStartTest on Java 17). start() blocks, on a daemon thread of the agent's.
        Thread thread = new Thread(() -> {
            try {
                stream.start();
            } catch (RuntimeException e) {
                System.err.println("lab agent: safepoint stream stopped: " + e);
            }
        }, "lab-agent-safepoints");
        thread.setDaemon(true);
        thread.start();
    }

    void writeTo(Exposition out) {
        safepoints.writeTo(out);
        out.single(MetricNames.SAFEPOINT_MAX, "gauge", "The longest time-to-safepoint since the last scrape (0 if none)",
            (out.scrape ? longestNanos.getAndSet(0) : longestNanos.get()) / 1e9);
    }

    @Override
    public void close() {
        stream.close();
    }
}
