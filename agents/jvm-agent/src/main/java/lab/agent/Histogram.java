package lab.agent;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A Prometheus histogram with fixed upper bounds, one child per label values. Observations are rare (a GC pause, a
 * safepoint), so each child is simply synchronized: a scrape reads counts, sum and buckets as one consistent set.
 */
final class Histogram {
    final String name;
    final String help;
    final List<String> labelNames;
    final double[] bounds;
    private final Map<List<String>, Child> children = new ConcurrentHashMap<>();

    Histogram(String name, String help, List<String> labelNames, double[] bounds) {
        this.name = name;
        this.help = help;
        this.labelNames = labelNames;
        this.bounds = bounds.clone();
    }

    void observe(double value, String... labelValues) {
        if (labelValues.length != labelNames.size()) throw new IllegalArgumentException(name + " takes labels " + labelNames);
        children.computeIfAbsent(List.of(labelValues), k -> new Child(bounds.length)).observe(bounds, value);
    }

    void writeTo(Exposition out) {
        out.family(name, "histogram", help);
        children.forEach((values, child) -> {
            long[] cumulative;
            double sum;
            synchronized (child) {
                cumulative = child.counts.clone();
                sum = child.sum;
            }
            for (int i = 1; i < cumulative.length; i++) cumulative[i] += cumulative[i - 1];
            for (int i = 0; i < bounds.length; i++) {
                // As the Java client writes le (Double.toString: "1.0E-4", "1.0"), so jvm-serializer's series and these match.
                out.sample(name + "_bucket", labelNames, values, "le", Double.toString(bounds[i]), cumulative[i]);
            }
            long count = cumulative[cumulative.length - 1];
            out.sample(name + "_bucket", labelNames, values, "le", "+Inf", count);
            out.sample(name + "_sum", labelNames, values, null, null, sum);
            out.sample(name + "_count", labelNames, values, null, null, count);
        });
    }

    private static final class Child {
        /** Per bucket (not cumulative), the last one above every bound. */
        final long[] counts;
        double sum;

        Child(int bounds) {
            counts = new long[bounds + 1];
        }

        synchronized void observe(double[] bounds, double value) {
            int i = 0;
            while (i < bounds.length && value > bounds[i]) i++;
            counts[i]++;
            sum += value;
        }
    }
}
