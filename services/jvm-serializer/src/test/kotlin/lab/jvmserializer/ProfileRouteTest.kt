package lab.jvmserializer

import jdk.jfr.FlightRecorder
import jdk.jfr.RecordingState
import kotlinx.serialization.json.int
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import lab.agent.JfrStackDepth
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.lang.management.ManagementFactory
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.time.Duration
import java.util.Base64
import java.util.concurrent.TimeUnit
import javax.management.ObjectName

/**
 * POST /profile (ProfileRoute.kt, the JVM agent's Profiler behind it) on a real server over HTTP: absent without
 * LAB_PROFILE_TOKEN, 401 without the token, 400 for a bad parameter, one at a time, and a JDK Flight Recorder profile
 * of the serde runs that ran during it.
 */
class ProfileRouteTest {
    private val token = "profile-route-test"
    private val client: HttpClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()

    private fun post(service: TestServer, path: String, authorization: String?): HttpRequest {
        val builder = HttpRequest.newBuilder(URI("http://127.0.0.1:${service.port}$path")).timeout(Duration.ofSeconds(120))
            .POST(HttpRequest.BodyPublishers.noBody())
        authorization?.let { builder.header("Authorization", it) }
        return builder.build()
    }

    private fun send(service: TestServer, path: String, authorization: String? = "Bearer $token") =
        client.send(post(service, path, authorization), HttpResponse.BodyHandlers.ofString())

    @Test
    fun `without LAB_PROFILE_TOKEN there is no profile route`() {
        TestServer(listOf(serdeWorkload())).use { service ->
            assertEquals(404, send(service, "/profile?seconds=1").statusCode())
        }
    }

    @Test
    fun `only the driver's token is let in, and bad parameters are refused naming what is allowed`() {
        TestServer(listOf(serdeWorkload()), Config(host = "127.0.0.1", port = 0, profileToken = token)).use { service ->
            for (authorization in listOf(null, "Bearer wrong", token)) {
                val refused = send(service, "/profile?seconds=1", authorization)
                assertEquals(401, refused.statusCode(), "$authorization")
                assertEquals("Bearer", refused.headers().firstValue("WWW-Authenticate").orElse(null))
            }
            val short = send(service, "/profile?intervalUs=500")
            assertEquals(400, short.statusCode())
            assertEquals("1000", short.json()["allowed"]!!.jsonObject["min"].toString())
            assertEquals(400, send(service, "/profile?seconds=0").statusCode())
            assertEquals(400, send(service, "/profile?minutes=1").statusCode())
            assertEquals(405, service.get("/profile").statusCode())
        }
    }

    @Test
    fun `a profile of the serde runs made while it records, one profile at a time`() {
        val workload = serdeWorkload()
        TestServer(listOf(workload), Config(host = "127.0.0.1", port = 0, profileToken = token)).use { service ->
            val profile = client.sendAsync(post(service, "/profile?seconds=2", "Bearer $token"), HttpResponse.BodyHandlers.ofString())
            // Once the recording runs (this test shares the server's JVM), a second profile is refused.
            while (!profile.isDone && FlightRecorder.getFlightRecorder().recordings.none { it.state == RecordingState.RUNNING }) Thread.sleep(5)
            if (!profile.isDone) assertEquals(409, send(service, "/profile?seconds=1").statusCode())
            // Runs until the profile answers, however long the machine takes over its two seconds.
            var runs = 0
            while (!profile.isDone) {
                assertEquals(200, service.get("/run/serde?approach=json&size=2000").statusCode())
                runs++
            }
            val answer = profile.get(60, TimeUnit.SECONDS)
            assertEquals(200, answer.statusCode(), answer.body())
            val body = answer.json()
            val nodes = body["profile"]!!.jsonObject["nodes"]!!.jsonArray.map { it.jsonObject["callFrame"]!!.jsonObject["functionName"]!!.jsonPrimitive.content }
            val samples = body["profile"]!!.jsonObject["samples"]!!.jsonArray.size
            assertTrue(samples > 0, "no sample in $runs runs")
            assertTrue(nodes.any { it.startsWith("thread ") }, "no thread node: ${nodes.take(20)}")
            assertTrue(nodes.any { it.startsWith("SerdeWorkload.") || it.startsWith("JsonApproach.") }, "no frame of the serde code in $runs runs: ${nodes.take(40)}")
            // Whole stacks: every decoding frame sits under the approach that ran it. JFR's default 64 frames cut a
            // kotlinx decode under Jetty off below its root (JfrStackDepth).
            val tree = body["profile"]!!.jsonObject["nodes"]!!.jsonArray.map { it.jsonObject }
            val parentOf = HashMap<Int, Int>()
            for (node in tree) node["children"]?.jsonArray?.forEach { parentOf[it.jsonPrimitive.int] = node["id"]!!.jsonPrimitive.int }
            val nameOf = tree.associate { it["id"]!!.jsonPrimitive.int to it["callFrame"]!!.jsonObject["functionName"]!!.jsonPrimitive.content }
            val ancestors = { id: Int -> generateSequence(parentOf[id]) { parentOf[it] }.map { nameOf[it]!! }.toList() }
            val decoding = nameOf.filterValues { it.startsWith("StreamingJsonDecoder.") }.keys
            assertTrue(decoding.all { id -> ancestors(id).any { it.startsWith("JsonApproach.") } }, "a decoding stack without its approach: ${decoding.map { ancestors(it).takeLast(3) }.take(3)}")
            // The route raised JFR's depth before it recorded: the JVM's own configuration says so.
            val configured = ManagementFactory.getPlatformMBeanServer().invoke(ObjectName("com.sun.management:type=DiagnosticCommand"), "jfrConfigure", arrayOf<Any>(arrayOf<String>()), arrayOf(Array<String>::class.java.name)).toString()
            assertTrue(configured.contains("Stack depth: ${JfrStackDepth.FRAMES}"), configured)
            assertEquals(10_000, body["intervalUs"]!!.jsonPrimitive.int)
            assertTrue(body["safepoints"]!!.jsonObject.containsKey("totalMs"))
            // The recording itself, as JDK Mission Control opens it: a JFR file starts with "FLR\0".
            val jfr = Base64.getDecoder().decode(body["jfr"]!!.jsonPrimitive.content)
            assertEquals("FLR", String(jfr, 0, 3, Charsets.US_ASCII))
        }
        workload.pool.close()
    }
}
