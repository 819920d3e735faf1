package lab.agent;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Prometheus' text format, version 0.0.4, written by hand (no client library on the application's class path):
 * `# HELP` and `# TYPE` once per family, then its samples; help text escapes backslash and newline, label values
 * backslash, double quote and newline. Families keep the order they are written in.
 */
final class Exposition {
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final StringBuilder out = new StringBuilder(16 * 1024);
    /** Whether writing the "longest since the last scrape" gauges resets them: a scrape does, /info's listing does not. */
    final boolean scrape;

    Exposition(boolean scrape) {
        this.scrape = scrape;
    }

    private final List<String> families = new ArrayList<>();

    void family(String name, String type, String help) {
        families.add(name);
        out.append("# HELP ").append(name).append(' ').append(help.replace("\\", "\\\\").replace("\n", "\\n")).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    /** A gauge or counter with one value and no labels. */
    void single(String name, String type, String help, double value) {
        family(name, type, help);
        sample(name, List.of(), List.of(), null, null, value);
    }

    /** One sample: labels as names and values, and one more label (a histogram's `le`) when extraName is given. */
    void sample(String name, List<String> labelNames, List<String> labelValues, String extraName, String extraValue, double value) {
        out.append(name);
        if (!labelNames.isEmpty() || extraName != null) {
            out.append('{');
            for (int i = 0; i < labelNames.size(); i++) {
                if (i > 0) out.append(',');
                label(labelNames.get(i), labelValues.get(i));
            }
            if (extraName != null) {
                if (!labelNames.isEmpty()) out.append(',');
                label(extraName, extraValue);
            }
            out.append('}');
        }
        out.append(' ').append(number(value)).append('\n');
    }

    void sample(String name, List<String> labelNames, List<String> labelValues, double value) {
        sample(name, labelNames, labelValues, null, null, value);
    }

    private void label(String name, String value) {
        out.append(name).append("=\"").append(value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n")).append('"');
    }

    /** Whole numbers without a fraction, others as Java writes doubles (Go's parser reads both, and +Inf, -Inf, NaN). */
    static String number(double value) {
        if (Double.isNaN(value)) return "NaN";
        if (Double.isInfinite(value)) return value > 0 ? "+Inf" : "-Inf";
        if (value == Math.rint(value) && Math.abs(value) < 1e15) return Long.toString((long) value);
        return Double.toString(value);
    }

    List<String> families() {
        return Collections.unmodifiableList(families);
    }

    String text() {
        return out.toString();
    }
}
