package lab.jvmserializer

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.jsonObject
import lab.jvmserializer.documents.DocumentStore
import lab.jvmserializer.http.DocumentRoutes
import lab.jvmserializer.http.LabServer
import lab.jvmserializer.payloads.Vectors
import lab.jvmserializer.serde.ObjectsInputs
import lab.jvmserializer.serde.SerdeWorkload
import lab.jvmserializer.workloads.Workload
import java.io.File
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.time.Duration

/** The repository's payloads/vectors.json, as pom.xml points Surefire at it. */
fun repoVectors(): Vectors = Vectors.fromFile(File(System.getProperty("lab.vectors") ?: error("run through Maven: -Dlab.vectors is unset")))

fun serdeWorkload(cacheObjects: Int = 20_000, config: Config = Config()) = SerdeWorkload(ObjectsInputs(repoVectors(), cacheObjects), config)

/** A real server on an ephemeral port of 127.0.0.1, talked to over real HTTP. */
class TestServer(
    workloads: List<Workload>,
    config: Config = Config(host = "127.0.0.1", port = 0),
    documents: DocumentRoutes? = null,
) : AutoCloseable {
    val server = LabServer(config, workloads, documents = documents)
    val port = server.start()
    private val client: HttpClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build()

    fun request(path: String, method: String = "GET"): HttpRequest =
        HttpRequest.newBuilder(URI("http://127.0.0.1:$port$path")).timeout(Duration.ofSeconds(60))
            .method(method, HttpRequest.BodyPublishers.noBody()).build()

    fun get(path: String, method: String = "GET"): HttpResponse<String> =
        client.send(request(path, method), HttpResponse.BodyHandlers.ofString())

    /** PUT [body] with [headers] (a Content-Type among them); [chunked]: no Content-Length, so it arrives chunked. */
    fun put(path: String, body: ByteArray, headers: Map<String, String>, chunked: Boolean = false): HttpResponse<String> {
        val publisher = if (chunked) HttpRequest.BodyPublishers.ofInputStream { body.inputStream() } else HttpRequest.BodyPublishers.ofByteArray(body)
        val builder = HttpRequest.newBuilder(URI("http://127.0.0.1:$port$path")).timeout(Duration.ofSeconds(60)).PUT(publisher)
        headers.forEach { (name, value) -> builder.header(name, value) }
        return client.send(builder.build(), HttpResponse.BodyHandlers.ofString())
    }

    fun putJson(text: String) = put("/documents", text.encodeToByteArray(), mapOf("Content-Type" to "application/json"))

    fun getAsync(path: String) = client.sendAsync(request(path), HttpResponse.BodyHandlers.ofString())

    override fun close() {
        server.stop(1000)
    }
}

/** A service that keeps users' documents, as Main builds it, on port 0. */
class DocumentService(config: Config = Config()) : AutoCloseable {
    val store = DocumentStore(config.documents.maxCount, config.documents.maxBytes)
    val workload = SerdeWorkload(ObjectsInputs(repoVectors(), 20_000), config, store)
    val http = TestServer(listOf(workload), config.copy(host = "127.0.0.1", port = 0),
        DocumentRoutes(store, config.documents, workload.documentApproaches, workload.memory, config.requestTimeoutMs))

    override fun close() {
        http.close()
        workload.pool.close()
    }
}

fun HttpResponse<String>.json(): JsonObject = Json.parseToJsonElement(body()).jsonObject
