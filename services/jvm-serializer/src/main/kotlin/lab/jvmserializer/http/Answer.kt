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
            Answer(status, JSON_TYPE, wellFormed(Json.encodeToString(JsonElement.serializer(), body)).encodeToByteArray(), headers)

        /**
         * JSON text with each unpaired surrogate written as a `\u` escape, as JSON.stringify writes it in Node: kotlinx
         * writes the code unit itself, which UTF-8 cannot hold (it would arrive as `?`). An answer can hold one where
         * it names a user's key (a finding's path) or cuts an excerpt between the two halves of a pair. Outside strings
         * JSON has only ASCII, so every surrogate is inside a string, where the escape means the same code unit.
         */
        fun wellFormed(text: String): String {
            if (text.none { Character.isSurrogate(it) }) return text
            val out = StringBuilder(text.length + 16)
            var i = 0
            while (i < text.length) {
                val c = text[i]
                if (Character.isHighSurrogate(c) && i + 1 < text.length && Character.isLowSurrogate(text[i + 1])) {
                    out.append(c).append(text[i + 1])
                    i += 2
                    continue
                }
                if (Character.isSurrogate(c)) out.append("\\u%04x".format(c.code)) else out.append(c)
                i++
            }
            return out.toString()
        }

        fun of(error: HttpError) = json(error.status, error.body(), error.headers)

        /** The body of a 500: the failure's message in words, never a class name or a stack trace. */
        fun failure(e: Throwable) = json(500, JsonObject(mapOf("error" to JsonPrimitive(e.message ?: "internal error"))))
    }
}
