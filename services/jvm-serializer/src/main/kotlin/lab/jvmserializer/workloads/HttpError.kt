package lab.jvmserializer.workloads

import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive

/**
 * A refusal (CONTRACT.md, "Errors"): answered with [status], a JSON body, `error` first, then [details], and any
 * [headers] it needs (a 405's Allow, a 503's Retry-After, `Connection: close` after a request head that cannot be read).
 */
class HttpError(
    val status: Int,
    message: String,
    private val details: Map<String, JsonElement> = emptyMap(),
    val headers: Map<String, String> = emptyMap(),
) : RuntimeException(message) {
    fun body(): JsonObject = JsonObject(mapOf("error" to JsonPrimitive(message)) + details)

    companion object {
        fun badRequest(message: String, parameter: String, allowed: JsonElement) =
            HttpError(400, message, mapOf("parameter" to JsonPrimitive(parameter), "allowed" to allowed))
    }
}
