package lab.agent;

import java.lang.management.ClassLoadingMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.management.RuntimeMXBean;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What the JVM and the OS say about the process, read at each scrape: Prometheus' process names, the lab's heap
 * figures, and OpenTelemetry's JVM conventions (memory by pool, threads, CPU, classes).
 */
final class RuntimeMetrics {
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final List<String> POOL_LABELS = List.of("jvm_memory_type", "jvm_memory_pool_name");

    private final com.sun.management.OperatingSystemMXBean os = osBean();
    private final RuntimeMXBean runtime = ManagementFactory.getRuntimeMXBean();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final ClassLoadingMXBean classes = ManagementFactory.getClassLoadingMXBean();
    private final List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans();

    void writeTo(Exposition out) {
        double cpuSeconds = os == null ? -1 : os.getProcessCpuTime() / 1e9;
        if (cpuSeconds >= 0) out.single(MetricNames.PROCESS_CPU, "counter", "Total user and system CPU time spent in seconds", cpuSeconds);
        long rss = residentBytes();
        if (rss >= 0) out.single(MetricNames.PROCESS_RSS, "gauge", "Resident memory size in bytes (VmRSS of /proc/self/status)", rss);
        out.single(MetricNames.PROCESS_START, "gauge", "Start time of the process since unix epoch in seconds", runtime.getStartTime() / 1000.0);
        out.single(MetricNames.THREADS_LIVE, "gauge", "Current thread count of the JVM, daemon and non-daemon threads", threads.getThreadCount());

        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        out.single(MetricNames.HEAP_USED, "gauge", "Heap in use (MemoryMXBean)", heap.getUsed());
        out.single(MetricNames.HEAP_COMMITTED, "gauge", "Heap committed by the JVM (MemoryMXBean)", heap.getCommitted());
        if (heap.getMax() >= 0) out.single(MetricNames.HEAP_MAX, "gauge", "The heap's limit (-Xmx or the JVM's default)", heap.getMax());

        pools(out, MetricNames.OTEL_MEMORY_USED, "Measure of memory used (OpenTelemetry jvm.memory.used)", MemoryUsage::getUsed);
        pools(out, MetricNames.OTEL_MEMORY_COMMITTED, "Measure of memory committed (OpenTelemetry jvm.memory.committed)", MemoryUsage::getCommitted);
        pools(out, MetricNames.OTEL_MEMORY_LIMIT, "Measure of max obtainable memory (OpenTelemetry jvm.memory.limit)", MemoryUsage::getMax);
        int daemons = threads.getDaemonThreadCount();
        out.family(MetricNames.OTEL_THREAD_COUNT, "gauge", "Number of executing platform threads (OpenTelemetry jvm.thread.count)");
        out.sample(MetricNames.OTEL_THREAD_COUNT, List.of("jvm_thread_daemon"), List.of("true"), daemons);
        out.sample(MetricNames.OTEL_THREAD_COUNT, List.of("jvm_thread_daemon"), List.of("false"), threads.getThreadCount() - daemons);
        if (cpuSeconds >= 0) out.single(MetricNames.OTEL_CPU_TIME, "counter", "CPU time used by the process as reported by the JVM (OpenTelemetry jvm.cpu.time)", cpuSeconds);
        out.single(MetricNames.OTEL_CPU_COUNT, "gauge", "Number of processors available to the Java virtual machine (OpenTelemetry jvm.cpu.count)", Runtime.getRuntime().availableProcessors());
        out.single(MetricNames.OTEL_CLASS_COUNT, "gauge", "Number of classes currently loaded (OpenTelemetry jvm.class.count)", classes.getLoadedClassCount());
    }

    private interface Figure {
        long of(MemoryUsage usage);
    }

    /** One sample per memory pool; a pool that is no longer valid or has no such figure (-1: no limit) is left out. */
    private void pools(Exposition out, String name, String help, Figure figure) {
        out.family(name, "gauge", help);
        for (MemoryPoolMXBean pool : pools) {
            MemoryUsage usage = pool.isValid() ? pool.getUsage() : null;
            if (usage == null || figure.of(usage) < 0) continue;
            String type = pool.getType() == MemoryType.HEAP ? "heap" : "non_heap";
            out.sample(name, POOL_LABELS, List.of(type, pool.getName()), figure.of(usage));
        }
    }

    /** VmRSS in bytes, or -1 where /proc/self/status cannot be read (not Linux). */
    private static long residentBytes() {
        try {
            for (String line : Files.readAllLines(STATUS)) {
                if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        } catch (Exception e) {
            // not Linux, or a /proc we may not read
        }
        return -1;
    }

    private static com.sun.management.OperatingSystemMXBean osBean() {
        java.lang.management.OperatingSystemMXBean bean = ManagementFactory.getOperatingSystemMXBean();
        return bean instanceof com.sun.management.OperatingSystemMXBean ? (com.sun.management.OperatingSystemMXBean) bean : null;
    }
}
