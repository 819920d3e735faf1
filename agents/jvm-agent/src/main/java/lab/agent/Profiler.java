package lab.agent;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * POST /profile?seconds=N&intervalUs=U: what the JVM ran for N seconds. The lab's one JVM profile code, public for
 * that: the side port answers with [answer], and so does services/jvm-serializer's ProfileRoute on the service's own
 * port (the agent's artifact is a dependency of its build), so the load driver reads both alike. JDK Flight Recorder
 * samples every thread running Java code each intervalUs (10 ms by default, 1 ms at the least: JFR's floor) and
 * records every safepoint and GC pause. The answer holds the samples as a V8 .cpuprofile ([CpuProfile]), the
 * safepoints' and pauses' count, total and longest, and the recording itself (base64), which JDK Mission Control
 * opens. Only the token's holder may ask (401 otherwise, compared in constant time); one at a time (409); it holds a
 * request thread for its seconds.
 */
public final class Profiler {
    static final String SAMPLE = "jdk.ExecutionSample";
    static final String SAFEPOINT = "jdk.SafepointBegin";
    static final String GC_PAUSE = "jdk.GCPhasePause";
    // The Node agent's parameters (agents/node-agent/profile.js), but JFR samples no more often than once a
    // millisecond, and by default every 10 ms (JFR's own profiling setting): every thread sampled each millisecond made
    // jvm-serializer's serde json run of 2000 objects 12-19 % slower while it recorded, every 10 ms 3 % (2026-11-27,
    // 2 cores).
    static final IntParam SECONDS = new IntParam("seconds", 10, 1, 300);
    static final IntParam INTERVAL_US = new IntParam("intervalUs", 10_000, 1000, 100_000);
    static final List<IntParam> PARAMS = List.of(SECONDS, INTERVAL_US);

    private final byte[] expected;
    private final AtomicBoolean busy = new AtomicBoolean(false);

    public Profiler(String token) {
        expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * What an HTTP server answers to POST /profile, in JDK types only so that any server can write it: its status,
     * JSON body and extra headers. A refusal (401, 400, 409) is an answer like a profile's 200; only a failure throws.
     */
    public record Answer(int status, String json, Map<String, String> headers) {
    }

    /**
     * The answer to one request, given its Authorization header (null when absent) and its query, decoded: each name
     * to every value given, in order. Holds the calling thread for the profile's seconds.
     */
    public Answer answer(String authorization, Map<String, List<String>> query) {
        try {
            return new Answer(200, Json.write(handle(authorization, query)), Map.of());
        } catch (HttpError e) {
            return new Answer(e.status, Json.write(e.body), Collections.unmodifiableMap(e.headers));
        }
    }

    /** Checks the request (401, 400, 409), then records: the JSON answer. */
    private Map<String, Object> handle(String authorization, Map<String, List<String>> query) {
        byte[] given = (authorization == null ? "" : authorization).getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(given, expected)) {
            throw new HttpError(401, "profiling is for the load driver: send Authorization: Bearer <LAB_PROFILE_TOKEN>")
                .with("allowed", List.of("Authorization: Bearer <token>")).header("WWW-Authenticate", "Bearer");
        }
        List<String> names = new ArrayList<>();
        for (IntParam p : PARAMS) names.add(p.name);
        for (Map.Entry<String, List<String>> entry : query.entrySet()) {
            IntParam param = PARAMS.stream().filter(p -> p.name.equals(entry.getKey())).findFirst().orElse(null);
            if (param == null) throw HttpError.badRequest("unknown parameter " + entry.getKey(), entry.getKey(), names);
            if (entry.getValue().size() != 1) throw HttpError.badRequest("parameter " + param.name + " must be given once", param.name, param.describe());
        }
        int seconds = SECONDS.from(query);
        int intervalUs = INTERVAL_US.from(query);
        if (!busy.compareAndSet(false, true)) throw new HttpError(409, "a profile is being taken: one at a time").with("allowed", List.of());
        try {
            return record(seconds, intervalUs);
        } finally {
            busy.set(false);
        }
    }

    /** Records for [seconds], sampling every [intervalUs], and answers: the JSON value of a 200. */
    static Map<String, Object> record(int seconds, int intervalUs) {
        JfrStackDepth.ensure(); // whole stacks, not JFR's 64 leaf-most frames (a no-op once the agent started)
        Path file = null;
        try {
            file = Files.createTempFile("lab-agent-profile-", ".jfr");
            long startedAtMs;
            long endedAtMs;
            try (Recording recording = new Recording()) {
                recording.enable(SAMPLE).withPeriod(Duration.ofNanos(intervalUs * 1000L));
                recording.enable(SAFEPOINT).withoutThreshold();
                recording.enable(GC_PAUSE).withoutThreshold();
                startedAtMs = System.currentTimeMillis();
                recording.start();
                try {
                    Thread.sleep(seconds * 1000L);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt(); // shutting down: answer with what was recorded
                }
                recording.stop();
                endedAtMs = System.currentTimeMillis();
                recording.dump(file);
            }
            List<RecordedEvent> events = RecordingFile.readAllEvents(file);
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("thread", "every thread running Java code (JDK Flight Recorder)");
            answer.put("startedAtMs", startedAtMs);
            answer.put("endedAtMs", endedAtMs);
            answer.put("intervalUs", intervalUs);
            answer.put("profile", CpuProfile.of(named(events, SAMPLE), startedAtMs, endedAtMs, intervalUs));
            answer.put("safepoints", pauses(named(events, SAFEPOINT)));
            answer.put("gcPauses", pauses(named(events, GC_PAUSE)));
            answer.put("jfr", Base64.getEncoder().encodeToString(Files.readAllBytes(file)));
            return answer;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } finally {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (java.io.IOException ignored) {
                    // a temp file left behind is the least of it
                }
            }
        }
    }

    private static List<RecordedEvent> named(List<RecordedEvent> events, String type) {
        List<RecordedEvent> out = new ArrayList<>();
        for (RecordedEvent e : events) if (e.getEventType().getName().equals(type)) out.add(e);
        return out;
    }

    /** {count, totalMs, maxMs} of duration events. */
    private static Map<String, Object> pauses(List<RecordedEvent> events) {
        double total = 0;
        double max = 0;
        for (RecordedEvent e : events) {
            double ms = e.getDuration().toNanos() / 1e6;
            total += ms;
            max = Math.max(max, ms);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("count", events.size());
        out.put("totalMs", Math.round(total * 1000) / 1000.0);
        out.put("maxMs", Math.round(max * 1000) / 1000.0);
        return out;
    }

    /** An integer query parameter with a default and a range; a bad value is a 400 naming the range. */
    static final class IntParam {
        final String name;
        final int defaultValue;
        final int min;
        final int max;

        IntParam(String name, int defaultValue, int min, int max) {
            if (defaultValue < min || defaultValue > max) throw new IllegalArgumentException(name + ": default outside [min, max]");
            this.name = name;
            this.defaultValue = defaultValue;
            this.min = min;
            this.max = max;
        }

        Map<String, Object> describe() {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("default", defaultValue);
            d.put("min", min);
            d.put("max", max);
            return d;
        }

        int from(Map<String, List<String>> query) {
            List<String> given = query.get(name);
            if (given == null) return defaultValue;
            String raw = given.get(0);
            Map<String, Object> range = new LinkedHashMap<>();
            range.put("min", min);
            range.put("max", max);
            if (!raw.matches("-?[0-9]+")) throw HttpError.badRequest(name + " must be an integer", name, range);
            long value;
            try {
                value = Long.parseLong(raw);
            } catch (NumberFormatException e) {
                value = Long.MAX_VALUE; // digits beyond long's range: still an integer, just out of range
            }
            if (value < min || value > max) throw HttpError.badRequest(name + " must be between " + min + " and " + max, name, range);
            return (int) value;
        }
    }
}
