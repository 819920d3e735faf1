package lab.agent;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * CPU time of the JVM's threads by pool: `lab_jvm_thread_cpu_seconds_total{pool}`. A series per thread would be
 * unbounded (every pool thread a pool starts anew is a series) and "the top few" would change names from scrape to
 * scrape, which no rate() can follow. A pool is the thread's name with its digits taken out ("qtp1234-56" and
 * "qtp1234-57" are "qtp#-#", "pool-3-thread-7" is "pool-#-thread-#"), fixed when the thread is first seen (a thread
 * renamed later stays where its time was counted), at most [MAX_POOLS] of them, the rest in "other". A thread that
 * ended keeps its time in its pool as last read, so every series only grows (what it ran since the scrape before its
 * end is lost). A scrape reads every live thread's CPU clock: one call for all of them, no safepoint.
 */
final class ThreadCpu {
    static final int MAX_POOLS = 30;
    static final String OTHER = "other";

    private final com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final boolean supported;
    /** Live threads as last seen: id -> {pool, cpu nanos}. */
    private final Map<Long, Seen> seen = new HashMap<>();
    /** Every pool ever named: never more than MAX_POOLS. */
    private final Set<String> pools = new HashSet<>();
    /** Time of ended threads, by pool. */
    private final Map<String, Long> ended = new HashMap<>();

    ThreadCpu() {
        boolean on;
        try {
            on = bean.isThreadCpuTimeSupported();
            if (on && !bean.isThreadCpuTimeEnabled()) bean.setThreadCpuTimeEnabled(true);
        } catch (UnsupportedOperationException | SecurityException e) {
            on = false;
        }
        supported = on;
    }

    synchronized void writeTo(Exposition out) {
        if (!supported) return;
        long[] ids = bean.getAllThreadIds();
        long[] cpu = bean.getThreadCpuTime(ids);
        ThreadInfo[] infos = bean.getThreadInfo(ids, 0);
        Map<Long, Seen> now = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            if (cpu[i] < 0 || infos[i] == null) continue; // ended between the calls
            Seen before = seen.get(ids[i]);
            String pool = before != null ? before.pool : poolOf(infos[i].getThreadName());
            now.put(ids[i], new Seen(pool, Math.max(cpu[i], before == null ? 0 : before.nanos)));
        }
        for (Map.Entry<Long, Seen> gone : seen.entrySet()) {
            if (!now.containsKey(gone.getKey())) ended.merge(gone.getValue().pool, gone.getValue().nanos, Long::sum);
        }
        seen.clear();
        seen.putAll(now);
        Map<String, Long> byPool = new TreeMap<>(ended);
        for (Seen s : now.values()) byPool.merge(s.pool, s.nanos, Long::sum);
        out.family(MetricNames.THREAD_CPU, "counter",
            "CPU time of the JVM's threads by pool (the thread name without its digits), ended threads included as last read");
        for (Map.Entry<String, Long> pool : byPool.entrySet()) {
            out.sample(MetricNames.THREAD_CPU, List.of("pool"), List.of(pool.getKey()), pool.getValue() / 1e9);
        }
    }

    private String poolOf(String name) {
        String pool = name.replaceAll("[0-9]+", "#");
        if (pools.contains(pool) || pools.size() < MAX_POOLS && pools.add(pool)) return pool;
        return OTHER;
    }

    private static final class Seen {
        final String pool;
        final long nanos;

        Seen(String pool, long nanos) {
            this.pool = pool;
            this.nanos = nanos;
        }
    }
}
