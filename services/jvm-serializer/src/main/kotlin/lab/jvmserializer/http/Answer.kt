package lab.jvmserializer.http

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import lab.jvmserializer.workloads.HttpError
import org.eclipse.jetty.http.HttpHeader
import org.eclipse.jetty.server.Response
import org.eclipse.jetty.util.Callback
import java.nio.ByteBuffer

/** What a route answers, independent of the server: status, body bytes and their type, extra headers. */
class Answer(val status: Int, val contentType: String, val body: ByteArray, val headers: Map<String, String> = emptyMap()) {
    fun withHeader(name: String, value: String) = Answer(status, contentType, body, headers + (name to value))

    /** Writes the whole answer in one go; [done] runs once the bytes are out or the write failed. */
    fun writeTo(response: Response, done: Callback) {
        response.status = status
        response.headers.put(HttpHeader.CONTENT_TYPE, contentType)
        headers.forEach { (name, value) -> response.headers.put(name, value) }
        response.headers.put(HttpHeader.CONTENT_LENGTH, body.size.toLong())
        // Jetty leaves the body out of a HEAD response itself.
        response.write(true, ByteBuffer.wrap(body), done)
    }

    companion object {
        const val JSON_TYPE = "application/json; charset=utf-8"

        fun json(status: Int, body: JsonElement, headers: Map<String, String> = emptyMap()) =
            Answer(status, JSON_TYPE, Json.encodeToString(JsonElement.serializer(), body).encodeToByteArray(), headers)

        fun of(error: HttpError) = json(error.status, error.body(), error.headers)

        /** The body of a 500: the failure's message in words, never a class name or a stack trace. */
        fun failure(e: Throwable) = json(500, JsonObject(mapOf("error" to JsonPrimitive(e.message ?: "internal error"))))
    }
}
