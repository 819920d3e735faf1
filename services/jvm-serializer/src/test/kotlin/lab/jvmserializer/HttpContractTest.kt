package lab.jvmserializer

import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.boolean
import kotlinx.serialization.json.double
import kotlinx.serialization.json.int
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import kotlinx.serialization.json.long
import lab.jvmserializer.metrics.MetricNames
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource

/** The contract (CONTRACT.md) over real HTTP against the real service on port 0. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpContractTest {
    private val vectors = repoVectors()
    private val service = TestServer(listOf(serdeWorkload()))

    @AfterAll
    fun stop() = service.close()

    @Test
    fun `healthz answers ok`() {
        val response = service.get("/healthz")
        assertEquals(200, response.statusCode())
        assertEquals(JsonObject(mapOf("status" to JsonPrimitive("ok"), "runs" to JsonPrimitive(0))), response.json())
    }

    @Test
    fun `info names the runtime, the libraries and the serde workload's schema`() {
        val info = service.get("/info").json()
        assertEquals("jvm-serializer", info.str("service"))
        assertEquals("jvm", info.obj("runtime").str("name"))
        assertEquals(System.getProperty("java.version"), info.obj("runtime").str("version"))
        val libraries = info.obj("libraries")
        assertEquals(
            setOf("kotlin", "kotlinx-serialization-json", "kotlinx-serialization-cbor", "jackson-databind", "jackson-dataformat-cbor",
                "jackson-annotations", "prometheus-metrics", "jetty"),
            libraries.keys,
        )
        // Jackson's annotations are numbered by minor version only (2.23) since 2.20.
        libraries.values.forEach { assertTrue(Regex("""\d+\.\d+(\.\d+)?""").matches(it.jsonPrimitive.content), "version $it") }
        assertEquals(libraries.str("kotlinx-serialization-json"), libraries.str("kotlinx-serialization-cbor"))
        assertEquals(libraries.str("jackson-databind"), libraries.str("jackson-dataformat-cbor"))
        assertEquals(Runtime.getRuntime().availableProcessors(), info.obj("runtime").int("availableProcessors"))
        assertEquals(Runtime.getRuntime().maxMemory(), info.obj("runtime").getValue("maxHeapBytes").jsonPrimitive.long)
        val serde = info.obj("workloads").obj("serde")
        assertEquals(listOf("json", "json-multithreaded", "cbor", "jackson", "jackson-cbor"),
            (serde["approaches"] as JsonArray).map { it.jsonPrimitive.content })
        assertEquals(Config().serdeThreads, serde.obj("pool").int("threads"))
        assertEquals(Config().serdeParallelMinObjects, serde.obj("pool").int("parallelMinObjects"))
        val params = serde.obj("params")
        assertEquals(listOf("document", "size", "seed", "repeat"), params.keys.toList())
        assertEquals(listOf(1, 1, 100), listOf("default", "min", "max").map { params.obj("repeat").int(it) })
        assertEquals(listOf(1000, 1, 100_000), listOf("default", "min", "max").map { params.obj("size").int(it) })
        assertEquals(listOf(1, 0, Int.MAX_VALUE), listOf("default", "min", "max").map { params.obj("seed").int(it) })
        assertEquals("objects", params.obj("document").str("default"))
    }

    @Test
    fun `a size pinned in vectors json is validated against the vector`() {
        val pinned = vectors.documents.first { it.document == "objects" && it.size == 1000 }
        val result = service.get("/run/serde?approach=json&size=1000&seed=${pinned.seed}").json()
        assertEquals(true, result.bool("validated"), result.toString())
        assertEquals("vector", result.str("reference"))
        assertEquals(pinned.sha256, result.str("hash"))
        assertEquals(pinned.bytes, result["bytes"]!!.jsonPrimitive.long)
        assertEquals("objects", result.str("case"))
        assertEquals(
            JsonObject(mapOf("document" to JsonPrimitive("objects"), "size" to JsonPrimitive(1000), "seed" to JsonPrimitive(pinned.seed),
                "repeat" to JsonPrimitive(1))),
            result["params"],
        )
        val parts = result.num("serializeMs") + result.num("deserializeMs")
        assertEquals(result.num("ms"), parts, 0.0015)
    }

    @Test
    fun `a size not pinned is validated against the plain writer`() {
        val result = service.get("/run/serde?size=250&seed=77").json()
        assertEquals(true, result.bool("validated"), result.toString())
        assertEquals("plain-writer", result.str("reference"))
        assertEquals("json", result.str("approach"))
        assertTrue(result.num("ms") > 0)
    }

    @ParameterizedTest(name = "{0} -> 400 naming {1}")
    @CsvSource(
        delimiter = '|',
        value = [
            "/run/serde?approach=xml             | approach | [\"json\",\"json-multithreaded\",\"cbor\",\"jackson\",\"jackson-cbor\"]",
            "/run/serde?sise=10                  | sise     | [\"approach\",\"document\",\"size\",\"seed\",\"repeat\"]",
            "/run/serde?size=12.5                | size     | {\"min\":1,\"max\":100000}",
            "/run/serde?size=ten                 | size     | {\"min\":1,\"max\":100000}",
            "/run/serde?size=                    | size     | {\"min\":1,\"max\":100000}",
            "/run/serde?size=0                   | size     | {\"min\":1,\"max\":100000}",
            "/run/serde?size=100001              | size     | {\"min\":1,\"max\":100000}",
            "/run/serde?size=99999999999999999999 | size    | {\"min\":1,\"max\":100000}",
            "/run/serde?seed=-1                  | seed     | {\"min\":0,\"max\":2147483647}",
            "/run/serde?seed=2147483648          | seed     | {\"min\":0,\"max\":2147483647}",
            "/run/serde?document=records         | document | {\"values\":[\"objects\"],\"pattern\":\"[0-9a-f]{64}\"}",
            "/run/serde?size=1&size=2            | size     | {\"default\":1000,\"min\":1,\"max\":100000}",
        ],
    )
    fun `bad input is a 400 that names what is allowed`(path: String, parameter: String, allowed: String) {
        val response = service.get(path)
        assertEquals(400, response.statusCode(), response.body())
        val body = response.json()
        assertTrue(body.str("error").isNotBlank())
        assertEquals(parameter, body.str("parameter"))
        assertEquals(kotlinx.serialization.json.Json.parseToJsonElement(allowed), body["allowed"])
        assertEquals(200, service.get("/healthz").statusCode(), "still serving after $path")
    }

    @Test
    fun `unknown paths are a JSON 404 listing the routes, timed as unmatched`() {
        for (path in listOf("/nope", "/run/serde/extra")) {
            val response = service.get(path)
            assertEquals(404, response.statusCode())
            assertEquals("no route $path", response.json().str("error"))
            assertEquals(4, (response.json()["routes"] as JsonArray).size)
        }
        assertTrue(service.get("/metrics").body().contains("""route="unmatched",status_code="404""""))
        assertEquals(200, service.get("/run/serde?size=3").statusCode())
    }

    @Test
    fun `metrics carry the lab metrics and the JVM and process defaults in the text format`() {
        assertEquals(200, service.get("/run/serde?size=2&seed=5").statusCode())
        val response = service.get("/metrics")
        assertEquals(200, response.statusCode())
        assertTrue(response.headers().firstValue("Content-Type").get().startsWith("text/plain; version=0.0.4"))
        val text = response.body()
        for (name in listOf(MetricNames.RUN_DURATION, MetricNames.RUNS, MetricNames.HTTP_DURATION,
            "process_cpu_seconds_total", "process_resident_memory_bytes", "jvm_memory_used_bytes")) {
            assertTrue(text.contains("# TYPE $name"), "missing $name")
        }
        assertTrue(text.contains("""lab_runs_total{approach="json",outcome="ok",workload="serde"}"""))
        assertTrue(text.contains("""lab_run_duration_seconds_count{approach="json",case="objects",workload="serde"}"""))
        assertTrue(text.contains("""http_request_duration_seconds_count{method="GET",route="/run/:workload",status_code="200"}"""))
    }

    private fun JsonObject.obj(key: String) = getValue(key).jsonObject
    private fun JsonObject.str(key: String) = getValue(key).jsonPrimitive.content
    private fun JsonObject.int(key: String) = getValue(key).jsonPrimitive.int
    private fun JsonObject.num(key: String) = getValue(key).jsonPrimitive.double
    private fun JsonObject.bool(key: String) = getValue(key).jsonPrimitive.boolean
}
