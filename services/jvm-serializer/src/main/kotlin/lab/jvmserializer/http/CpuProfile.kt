package lab.jvmserializer.http

import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import jdk.jfr.consumer.RecordedEvent

/**
 * JFR's execution samples as a V8 .cpuprofile (nodes with a callFrame and children, samples naming a node each, the
 * microseconds between samples), the format the load driver reads (load/src/profile/cpu-profile.js) and Chromium's
 * DevTools and speedscope open. Each stack hangs under a node named after its thread, so the threads of the JVM are
 * the first level of the flame graph. JFR samples each running thread every period, so several samples share one
 * moment: `sampleIntervalUs` tells the reader that each stands for one period of its thread's time, whatever the
 * deltas between them.
 */
object CpuProfile {
    private class Node(val id: Int, val name: String) {
        val children = LinkedHashMap<String, Node>()
    }

    fun of(samples: List<RecordedEvent>, startedAtMs: Long, endedAtMs: Long, intervalUs: Int): JsonObject {
        val nodes = ArrayList<Node>()
        fun node(name: String) = Node(nodes.size + 1, name).also { nodes.add(it) }
        // A method is one node whatever line it was at: a flame graph of methods.
        fun Node.child(name: String) = children.getOrPut(name) { node(name) }
        val root = node("(root)")
        val ids = ArrayList<Int>()
        val deltas = ArrayList<Long>()
        var lastUs = startedAtMs * 1000
        for (sample in samples.sortedBy { it.startTime }) {
            val thread = sample.getThread("sampledThread")?.javaName ?: "(thread)"
            var at = root.child("thread $thread")
            // JFR lists the innermost frame first.
            for (frame in (sample.stackTrace?.frames ?: emptyList()).asReversed()) {
                val method = frame.method
                at = at.child("${method.type.name.substringAfterLast('.')}.${method.name}")
            }
            val atUs = sample.startTime.epochSecond * 1_000_000 + sample.startTime.nano / 1000
            ids.add(at.id)
            deltas.add(maxOf(0L, atUs - lastUs))
            lastUs = maxOf(lastUs, atUs)
        }
        return JsonObject(mapOf(
            "nodes" to JsonArray(nodes.map { n ->
                JsonObject(mapOf(
                    "id" to JsonPrimitive(n.id),
                    "callFrame" to JsonObject(mapOf(
                        "functionName" to JsonPrimitive(n.name),
                        "scriptId" to JsonPrimitive("0"),
                        "url" to JsonPrimitive(""),
                        "lineNumber" to JsonPrimitive(-1),
                        "columnNumber" to JsonPrimitive(-1),
                    )),
                    "children" to JsonArray(n.children.values.map { JsonPrimitive(it.id) }),
                ))
            }),
            "startTime" to JsonPrimitive(startedAtMs * 1000),
            "endTime" to JsonPrimitive(endedAtMs * 1000),
            "samples" to JsonArray(ids.map(::JsonPrimitive)),
            "timeDeltas" to JsonArray(deltas.map(::JsonPrimitive)),
            "sampleIntervalUs" to JsonPrimitive(intervalUs),
        ))
    }
}
