package lab.agent;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;

/**
 * JFR's execution samples as a V8 .cpuprofile (nodes with a callFrame and children, samples naming a node each, the
 * microseconds between samples), the format the load driver reads (load/src/profile/cpu-profile.js) and Chromium's
 * DevTools and speedscope open. Each stack hangs under a node named after its thread, so the threads are the first
 * level of the flame graph. JFR samples each running thread every period, so several samples share one moment:
 * `sampleIntervalUs` tells the reader that each stands for one period of its thread's time, whatever the deltas
 * between them. A method is one node whatever line it was at.
 */
final class CpuProfile {
    private CpuProfile() {
    }

    private static final class Node {
        final int id;
        final String name;
        final Map<String, Node> children = new LinkedHashMap<>();

        Node(int id, String name) {
            this.id = id;
            this.name = name;
        }
    }

    static Map<String, Object> of(List<RecordedEvent> samples, long startedAtMs, long endedAtMs, int intervalUs) {
        List<Node> nodes = new ArrayList<>();
        Node root = child(nodes, null, "(root)");
        List<Object> ids = new ArrayList<>();
        List<Object> deltas = new ArrayList<>();
        long lastUs = startedAtMs * 1000;
        List<RecordedEvent> sorted = new ArrayList<>(samples);
        sorted.sort(Comparator.comparing(RecordedEvent::getStartTime));
        for (RecordedEvent sample : sorted) {
            RecordedThread thread = sample.getThread("sampledThread");
            String threadName = thread == null || thread.getJavaName() == null ? "(thread)" : thread.getJavaName();
            Node at = child(nodes, root, "thread " + threadName);
            RecordedStackTrace stack = sample.getStackTrace();
            List<RecordedFrame> frames = stack == null ? List.of() : stack.getFrames();
            // JFR lists the innermost frame first.
            for (int i = frames.size() - 1; i >= 0; i--) {
                String type = frames.get(i).getMethod().getType().getName();
                at = child(nodes, at, type.substring(type.lastIndexOf('.') + 1) + "." + frames.get(i).getMethod().getName());
            }
            Instant time = sample.getStartTime();
            long atUs = time.getEpochSecond() * 1_000_000 + time.getNano() / 1000;
            ids.add(at.id);
            deltas.add(Math.max(0L, atUs - lastUs));
            lastUs = Math.max(lastUs, atUs);
        }
        List<Object> nodeList = new ArrayList<>();
        for (Node n : nodes) {
            Map<String, Object> callFrame = new LinkedHashMap<>();
            callFrame.put("functionName", n.name);
            callFrame.put("scriptId", "0");
            callFrame.put("url", "");
            callFrame.put("lineNumber", -1);
            callFrame.put("columnNumber", -1);
            List<Object> children = new ArrayList<>();
            for (Node c : n.children.values()) children.add(c.id);
            Map<String, Object> node = new LinkedHashMap<>();
            node.put("id", n.id);
            node.put("callFrame", callFrame);
            node.put("children", children);
            nodeList.add(node);
        }
        Map<String, Object> profile = new LinkedHashMap<>();
        profile.put("nodes", nodeList);
        profile.put("startTime", startedAtMs * 1000);
        profile.put("endTime", endedAtMs * 1000);
        profile.put("samples", ids);
        profile.put("timeDeltas", deltas);
        profile.put("sampleIntervalUs", intervalUs);
        return profile;
    }

    private static Node child(List<Node> nodes, Node parent, String name) {
        if (parent != null) {
            Node existing = parent.children.get(name);
            if (existing != null) return existing;
        }
        Node node = new Node(nodes.size() + 1, name);
        nodes.add(node);
        if (parent != null) parent.children.put(name, node);
        return node;
    }
}
