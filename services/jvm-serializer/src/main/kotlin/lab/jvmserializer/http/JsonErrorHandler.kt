package lab.jvmserializer.http

import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import org.eclipse.jetty.http.HttpStatus
import org.eclipse.jetty.server.Request
import org.eclipse.jetty.server.Response
import org.eclipse.jetty.server.handler.ErrorHandler
import org.eclipse.jetty.util.Callback

/**
 * What Jetty answers on its own, before [LabHandler] runs: a request head it cannot parse (a broken request line or
 * header, no Host: row 1 of CONTRACT.md's "Errors", 400), a target longer than the whole 16 KiB head allows (row 2,
 * 414), headers over that size (431, as Node answers), an HTTP version it does not speak (505). Jetty's own
 * ErrorHandler would answer with an HTML page; this one answers the contract's JSON. Jetty closes such a connection
 * itself.
 */
class JsonErrorHandler : Request.Handler {
    override fun handle(request: Request, response: Response, callback: Callback): Boolean {
        val status = (request.getAttribute(ErrorHandler.ERROR_STATUS) as? Int) ?: response.status
        if (status == HttpStatus.URI_TOO_LONG_414) {
            Answer.of(RequestTarget.targetTooLong()).writeTo(response, callback)
            return true
        }
        // Jetty's words for a client's error ("Illegal character SPACE", "No Host", ...); for anything else, or words
        // that name a Java class, the status's reason phrase: no exception text reaches the client.
        val message = (request.getAttribute(ErrorHandler.ERROR_MESSAGE) as? String)
            ?.takeIf { status in 400..499 && it.isNotBlank() && !it.contains("Exception") && !it.contains("java.") }
            ?: HttpStatus.getMessage(status)
        Answer.json(status, JsonObject(mapOf("error" to JsonPrimitive(message)))).writeTo(response, callback)
        return true
    }
}
