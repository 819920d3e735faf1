package lab.jvmserializer.http

import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import lab.jvmserializer.workloads.HttpError
import lab.jvmserializer.workloads.IntParam
import lab.jvmserializer.workloads.checkQueryNames
import lab.jvmserializer.workloads.strings
import jdk.jfr.Recording
import jdk.jfr.consumer.RecordedEvent
import jdk.jfr.consumer.RecordingFile
import org.eclipse.jetty.http.HttpHeader
import org.eclipse.jetty.server.Request
import java.nio.file.Files
import java.security.MessageDigest
import java.time.Duration
import java.util.Base64
import java.util.concurrent.atomic.AtomicBoolean

/**
 * POST /profile?seconds=N&intervalUs=U: what the JVM ran during a scenario, for the load driver (the Node services'
 * node-kit/profiler.js is its twin). JDK Flight Recorder, started through its API in this process, samples every
 * thread running Java code each intervalUs (10 ms by default, 1 ms at the least: JFR's floor) and records every
 * safepoint and every GC pause. The answer holds the samples as a V8 .cpuprofile, each stack under its thread's name,
 * so that the driver folds, draws and reads them as it does a Node profile; the safepoints' and pauses' count, total
 * and longest; and the recording itself (base64), which JDK Mission Control opens. Only the driver may ask: the route
 * exists where LAB_PROFILE_TOKEN is set, and answers 401 without `Authorization: Bearer <token>`. One at a time (409);
 * it holds a request thread for its seconds.
 */
class ProfileRoute(token: String) {
    private val expected = "Bearer $token".encodeToByteArray()
    private val busy = AtomicBoolean(false)

    fun handle(target: RequestTarget, request: Request): Answer {
        val given = (request.headers.get(HttpHeader.AUTHORIZATION) ?: "").encodeToByteArray()
        if (!MessageDigest.isEqual(given, expected)) {
            throw HttpError(401, "profiling is for the load driver: send Authorization: Bearer <LAB_PROFILE_TOKEN>",
                mapOf("allowed" to strings(listOf("Authorization: Bearer <token>"))), mapOf("WWW-Authenticate" to "Bearer"))
        }
        val query = target.queryParameters()
        checkQueryNames(query, PARAMS.map { it.name }) { name -> PARAMS.first { it.name == name }.describe() }
        val (seconds, intervalUs) = PARAMS.map { p -> query[p.name]?.single()?.let(p::parse) ?: p.default }
        if (!busy.compareAndSet(false, true)) throw HttpError(409, "a profile is being taken: one at a time", mapOf("allowed" to JsonArray(emptyList())))
        try {
            return Answer.json(200, record(seconds, intervalUs))
        } finally {
            busy.set(false)
        }
    }

    private fun record(seconds: Int, intervalUs: Int): JsonObject {
        JfrStackDepth.ensure() // whole stacks, not JFR's 64 leaf-most frames
        val file = Files.createTempFile("jvm-serializer-profile-", ".jfr")
        try {
            val startedAtMs: Long
            val endedAtMs: Long
            Recording().use { recording ->
                recording.enable(SAMPLE).withPeriod(Duration.ofNanos(intervalUs * 1000L))
                recording.enable(SAFEPOINT).withoutThreshold()
                recording.enable(GC_PAUSE).withoutThreshold()
                startedAtMs = System.currentTimeMillis()
                recording.start()
                try {
                    Thread.sleep(seconds * 1000L)
                } catch (e: InterruptedException) {
                    Thread.currentThread().interrupt() // shutting down: answer with what was recorded
                }
                recording.stop()
                endedAtMs = System.currentTimeMillis()
                recording.dump(file)
            }
            val events = RecordingFile.readAllEvents(file)
            return JsonObject(mapOf(
                "thread" to JsonPrimitive("every thread running Java code (JDK Flight Recorder)"),
                "startedAtMs" to JsonPrimitive(startedAtMs),
                "endedAtMs" to JsonPrimitive(endedAtMs),
                "intervalUs" to JsonPrimitive(intervalUs),
                "profile" to CpuProfile.of(events.filter { it.eventType.name == SAMPLE }, startedAtMs, endedAtMs, intervalUs),
                "safepoints" to pauses(events.filter { it.eventType.name == SAFEPOINT }),
                "gcPauses" to pauses(events.filter { it.eventType.name == GC_PAUSE }),
                "jfr" to JsonPrimitive(Base64.getEncoder().encodeToString(Files.readAllBytes(file))),
            ))
        } finally {
            Files.deleteIfExists(file)
        }
    }

    /** {count, totalMs, maxMs} of duration events. */
    private fun pauses(events: List<RecordedEvent>): JsonObject {
        val ms = events.map { it.duration.toNanos() / 1e6 }
        return JsonObject(mapOf(
            "count" to JsonPrimitive(ms.size),
            "totalMs" to JsonPrimitive(Math.round(ms.sum() * 1000) / 1000.0),
            "maxMs" to JsonPrimitive(Math.round((ms.maxOrNull() ?: 0.0) * 1000) / 1000.0),
        ))
    }

    private companion object {
        const val SAMPLE = "jdk.ExecutionSample"
        const val SAFEPOINT = "jdk.SafepointBegin"
        const val GC_PAUSE = "jdk.GCPhasePause"
        // The Node services' parameters (node-kit/profiler.js), but JFR samples no more often than once a millisecond,
        // and by default every 10 ms (JFR's own profiling setting): sampling every thread each millisecond made a
        // serde json run of 2000 objects 12-19 % slower while it recorded, every 10 ms 3 % (2026-11-27, 2 cores).
        val PARAMS = listOf(IntParam("seconds", 10, 1, 300), IntParam("intervalUs", 10_000, 1000, 100_000))
    }
}
