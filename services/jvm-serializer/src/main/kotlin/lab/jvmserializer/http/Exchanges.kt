package lab.jvmserializer.http

import com.sun.net.httpserver.HttpExchange
import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import java.net.URLDecoder

private const val JSON_TYPE = "application/json; charset=utf-8"

/** Answers with a JSON body and closes the exchange. */
fun HttpExchange.sendJson(status: Int, body: JsonElement) {
    val bytes = Json.encodeToString(JsonElement.serializer(), body).encodeToByteArray()
    responseHeaders.set("Content-Type", JSON_TYPE)
    sendResponseHeaders(status, bytes.size.toLong())
    responseBody.use { it.write(bytes) }
}

/**
 * The query string as name -> every value given, in order. Malformed percent escapes never get here: the JDK's
 * server answers such a URI with its own 400 before any handler runs.
 */
fun HttpExchange.queryParameters(): Map<String, List<String>> {
    val raw = requestURI.rawQuery ?: return emptyMap()
    val out = LinkedHashMap<String, MutableList<String>>()
    for (part in raw.split('&')) {
        if (part.isEmpty()) continue
        val rawName = part.substringBefore('=')
        val rawValue = if ('=' in part) part.substringAfter('=') else ""
        out.getOrPut(decode(rawName)) { mutableListOf() }.add(decode(rawValue))
    }
    return out
}

private fun decode(text: String): String = URLDecoder.decode(text, Charsets.UTF_8)

/** The body of a 500: the failure's message, never a stack trace. */
fun errorBody(e: Throwable): JsonElement = JsonObject(mapOf("error" to JsonPrimitive(e.message ?: e.javaClass.name)))
