package lab.agent;

import java.util.ArrayList;
import java.util.List;

/** A /metrics answer read back: the sum of a series' samples whose labels include the given ones. */
final class Exposed {
    final String text;

    Exposed(String text) {
        this.text = text;
    }

    /** Sum of `name{...}` samples whose label set contains every `label="value"` given (none: all of them). */
    double sum(String name, String... labels) {
        double total = 0;
        for (String line : lines(name)) {
            boolean all = true;
            for (String label : labels) all &= line.contains(label);
            if (all) total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        }
        return total;
    }

    List<String> lines(String name) {
        List<String> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.startsWith(name + " ") || line.startsWith(name + "{")) out.add(line);
        }
        return out;
    }
}
