package lab.jvmserializer

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.boolean
import kotlinx.serialization.json.double
import kotlinx.serialization.json.int
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import lab.jvmserializer.metrics.MetricNames
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.DynamicTest.dynamicTest
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestFactory
import org.junit.jupiter.api.TestInstance
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource

/** /run/serde over real HTTP: every approach validates, `repeat` and its stats and refusals, the serde metrics. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SerdeRunsTest {
    private val workload = serdeWorkload(config = Config(serdeThreads = 2))
    private val service = TestServer(listOf(workload))

    @AfterAll
    fun stop() {
        service.close()
        workload.pool.close()
    }

    private fun run(query: String): JsonObject {
        val response = service.get("/run/serde?$query")
        assertEquals(200, response.statusCode(), response.body())
        return response.json()
    }

    @TestFactory
    fun `every approach validates, on a pinned size and on one checked against a writer`(): List<DynamicTest> =
        workload.approaches.flatMap { approach ->
            listOf("size=1000&seed=2", "size=250&seed=77", "size=1&seed=1").map { query ->
                dynamicTest("$approach $query") {
                    val result = run("approach=$approach&$query")
                    assertEquals(true, result.getValue("validated").jsonPrimitive.boolean, result.toString())
                    val expected = when {
                        approach.endsWith("cbor") -> "plain-cbor-writer"
                        query == "size=250&seed=77" -> "plain-writer"
                        else -> "vector"
                    }
                    assertEquals(expected, result.str("reference"))
                }
            }
        }

    @Test
    fun `repeat gives each phase's mean, median, min and p95, and ms is the mean round trip`() {
        val result = run("approach=json-multithreaded&size=200&repeat=7")
        assertEquals(7, result.getValue("params").jsonObject.getValue("repeat").jsonPrimitive.int)
        assertTrue(result.getValue("validated").jsonPrimitive.boolean)
        val stats = result.getValue("stats").jsonObject
        for (phase in listOf("serialize", "deserialize")) {
            val s = stats.getValue(phase).jsonObject.mapValues { it.value.jsonPrimitive.double }
            assertEquals(setOf("meanMs", "medianMs", "minMs", "p95Ms"), s.keys)
            assertTrue(s.getValue("minMs") <= s.getValue("medianMs") && s.getValue("medianMs") <= s.getValue("p95Ms"), s.toString())
            assertTrue(s.getValue("minMs") <= s.getValue("meanMs") && s.getValue("meanMs") <= s.getValue("p95Ms"), s.toString())
            assertEquals(s.getValue("meanMs"), result.num("${phase}Ms"))
        }
        assertEquals(result.num("ms"), result.num("serializeMs") + result.num("deserializeMs"), 0.0015)
    }

    @Test
    fun `a run without repeat has stats of its one repetition`() {
        val result = run("approach=cbor&size=10")
        val serialize = result.getValue("stats").jsonObject.getValue("serialize").jsonObject
        assertEquals(1, serialize.values.map { it.jsonPrimitive.double }.toSet().size, serialize.toString())
    }

    @ParameterizedTest(name = "{0} -> 400 on {1}, allowed {2}")
    @CsvSource(
        delimiter = '|',
        value = [
            "repeat=0                 | repeat | {\"min\":1,\"max\":100}",
            "repeat=101               | repeat | {\"min\":1,\"max\":100}",
            "repeat=1.5               | repeat | {\"min\":1,\"max\":100}",
            "repeat=2&size=100000     | repeat | {\"min\":1,\"max\":1,\"repeatTimesSizeMax\":100000}",
            "repeat=3&size=40000      | repeat | {\"min\":1,\"max\":2,\"repeatTimesSizeMax\":100000}",
            "repeat=100&size=1001     | repeat | {\"min\":1,\"max\":99,\"repeatTimesSizeMax\":100000}",
        ],
    )
    fun `repeat outside its range or the run budget is a 400 naming the limit`(query: String, parameter: String, allowed: String) {
        val response = service.get("/run/serde?$query")
        assertEquals(400, response.statusCode(), response.body())
        val body = response.json()
        assertEquals(parameter, body.str("parameter"))
        assertEquals(Json.parseToJsonElement(allowed), body["allowed"])
        if ("size" in query) assertTrue(body.str("error").contains("RUN_BUDGET"), body.toString())
    }

    @Test
    fun `repeat times size at the budget runs`() {
        assertTrue(run("approach=jackson&size=1000&repeat=100").getValue("validated").jsonPrimitive.boolean)
    }

    @Test
    fun `each repetition of a validated run is one observation per phase, labelled by scale`() {
        val before = phaseCount("jackson-cbor", "serialize", "100")
        run("approach=jackson-cbor&size=345&repeat=4")
        assertEquals(before + 4, phaseCount("jackson-cbor", "serialize", "100"))
        assertEquals(before + 4, phaseCount("jackson-cbor", "deserialize", "100"))
        val text = service.get("/metrics").body()
        assertTrue(text.contains("${MetricNames.SERDE_POOL_THREADS} 2.0"), "pool size gauge")
        assertTrue(text.contains("# TYPE ${MetricNames.SERDE_POOL_BUSY} gauge"), "busy gauge")
        // The JVM's own metrics the lead's dashboard reads: GC, memory, allocation.
        for (name in listOf("jvm_gc_collection_seconds", "jvm_memory_used_bytes", "jvm_memory_pool_allocated_bytes_total", "jvm_threads_current")) {
            assertTrue(text.contains("# TYPE $name"), "missing $name")
        }
    }

    private fun phaseCount(approach: String, phase: String, scale: String): Int {
        val line = """${MetricNames.SERDE_PHASE}_count{approach="$approach",phase="$phase",scale="$scale"} """
        return service.get("/metrics").body().lines().firstOrNull { it.startsWith(line) }?.substringAfter(line)?.toDouble()?.toInt() ?: 0
    }

    private fun JsonObject.str(key: String) = getValue(key).jsonPrimitive.content
    private fun JsonObject.num(key: String) = getValue(key).jsonPrimitive.double
}
