package lab.jvmserializer.workloads

import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive

/** An error the client caused: answered with [status] and a JSON body, `error` first, then [details]. */
class HttpError(val status: Int, message: String, private val details: Map<String, JsonElement> = emptyMap()) :
    RuntimeException(message) {
    fun body(): JsonObject = JsonObject(mapOf("error" to JsonPrimitive(message)) + details)

    companion object {
        fun badRequest(message: String, parameter: String, allowed: JsonElement) =
            HttpError(400, message, mapOf("parameter" to JsonPrimitive(parameter), "allowed" to allowed))
    }
}
