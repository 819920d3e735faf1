package lab.jvmserializer

import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import lab.jvmserializer.workloads.Workload

/** The /info answer: runtime, library versions (from pom.xml via build-info.properties) and workload schemas. */
object BuildInfo {
    private const val RESOURCE = "/build-info.properties"

    /** Library name -> version, in the file's order (java.util.Properties would lose it). */
    fun libraries(): Map<String, String> {
        val stream = BuildInfo::class.java.getResourceAsStream(RESOURCE)
            ?: throw IllegalStateException("$RESOURCE is missing from the classpath; build with Maven")
        return stream.bufferedReader().useLines { lines ->
            lines.map(String::trim).filter { it.isNotEmpty() && !it.startsWith("#") }
                .associate { line -> line.substringBefore('=').trim() to line.substringAfter('=').trim() }
        }
    }

    /** [documents]: the caps of users' documents, where the service keeps them (CONTRACT.md, "Users' documents"). */
    fun info(workloads: List<Workload>, documents: JsonObject? = null): JsonObject = buildJsonObject {
        put("service", Config.SERVICE_NAME)
        put("runtime", buildJsonObject {
            put("name", "jvm")
            put("version", System.getProperty("java.version"))
            // What the timings ran on: the CPUs this JVM sees (a container's cpus/cpuset) and the heap it may use.
            put("vm", "${System.getProperty("java.vm.name")} ${System.getProperty("java.vm.version")}")
            put("availableProcessors", Runtime.getRuntime().availableProcessors())
            put("maxHeapBytes", Runtime.getRuntime().maxMemory())
        })
        put("restarts", System.getenv("LAB_RESTARTS")?.toIntOrNull() ?: 0) // `make native` starts a crashed service again
        put("libraries", JsonObject(libraries().mapValues { JsonPrimitive(it.value) }))
        put("workloads", JsonObject(workloads.associate { it.name to it.describe() }))
        if (documents != null) put("documents", documents)
    }
}
