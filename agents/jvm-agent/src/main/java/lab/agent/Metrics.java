package lab.agent;

import java.util.List;

/** Everything /metrics answers, in one exposition; /info lists the families it wrote. */
final class Metrics implements AutoCloseable {
    private final GcPauses gcPauses = new GcPauses();
    private final Safepoints safepoints;
    private final ThreadCpu threadCpu = new ThreadCpu();
    private final RuntimeMetrics runtime = new RuntimeMetrics();
    private final String version;

    Metrics(String version) {
        this.version = version;
        safepoints = safepoints();
    }

    /** The safepoint stream, or null where JFR cannot stream (a runtime linked without jdk.jfr): the rest still serves. */
    private static Safepoints safepoints() {
        try {
            return new Safepoints();
        } catch (Throwable e) {
            System.err.println("lab agent: no safepoint metrics: " + e);
            return null;
        }
    }

    /** The exposition; a scrape resets the "longest since the last scrape" gauges, a look (scrape false) does not. */
    synchronized Exposition write(boolean scrape) {
        Exposition out = new Exposition(scrape);
        out.family(MetricNames.AGENT_INFO, "gauge", "The lab's agent attached to this process: which one and its version");
        out.sample(MetricNames.AGENT_INFO, List.of("agent", "version"), List.of("jvm", version), 1);
        gcPauses.writeTo(out);
        if (safepoints != null) safepoints.writeTo(out);
        threadCpu.writeTo(out);
        runtime.writeTo(out);
        return out;
    }

    @Override
    public void close() {
        if (safepoints != null) safepoints.close();
    }
}
