package lab.jvmserializer.http

import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import lab.jvmserializer.workloads.HttpError
import org.eclipse.jetty.http.HttpStatus
import org.eclipse.jetty.server.Request
import org.eclipse.jetty.server.Response
import org.eclipse.jetty.server.handler.ErrorHandler
import org.eclipse.jetty.util.Callback

/**
 * What Jetty answers on its own, before [LabHandler] runs: a request head it cannot parse (a broken request line or
 * header, no Host: row 1 of CONTRACT.md's "Errors", 400), a target longer than the whole 16 KiB head allows (row 2,
 * 414), headers over that size (431, as Node answers), an HTTP version it does not speak (505), an expectation it does
 * not meet (417), a head that did not arrive in time (408). Jetty's own ErrorHandler would answer with an HTML page;
 * this one answers the contract's JSON, with the same detail fields as the lab's other faces, and `Connection:
 * close`: Jetty closes such a connection itself.
 */
class JsonErrorHandler : Request.Handler {
    override fun handle(request: Request, response: Response, callback: Callback): Boolean {
        val status = (request.getAttribute(ErrorHandler.ERROR_STATUS) as? Int) ?: response.status
        // Jetty closes the connection after every answer it leaves to this handler; the answer says so, as the lab's
        // other faces do (a client must not send its next request on it).
        Answer.of(refusal(request, status)).withHeader("Connection", "close").writeTo(response, callback)
        return true
    }

    private fun refusal(request: Request, status: Int): HttpError {
        // The request line was read before Jetty refused the rest of the head: a target RequestTarget refused names
        // the fault better (CONNECT's authority form), and row 2 holds whatever the head's length (a 5000-byte target
        // with 12 KiB of headers is 414, not 431).
        val target = (request.connectionMetaData as? LabConnection)?.targetRefusal()
        if (target != null && (status == HttpStatus.BAD_REQUEST_400 || target.status == HttpStatus.URI_TOO_LONG_414)) {
            return target
        }
        return when (status) {
            HttpStatus.URI_TOO_LONG_414 -> RequestTarget.targetTooLong()
            // Jetty answers HTTP/2.0 as text with 426 (it would switch to h2c if the connector spoke it); to a client
            // it is one more version this face does not speak.
            HttpStatus.HTTP_VERSION_NOT_SUPPORTED_505, HttpStatus.UPGRADE_REQUIRED_426 -> RequestHead.versionNotSupported()
            HttpStatus.EXPECTATION_FAILED_417 -> RequestHead.expectationFailed()
            else -> HttpError(status, message(request, status))
        }
    }

    /**
     * Jetty's words for a client's error ("Illegal character SPACE", "No Host", ...); for anything else, or words that
     * name a Java class, the status's reason phrase: no exception text reaches the client.
     */
    private fun message(request: Request, status: Int): String =
        (request.getAttribute(ErrorHandler.ERROR_MESSAGE) as? String)
            ?.takeIf { status in 400..499 && it.isNotBlank() && !it.contains("Exception") && !it.contains("java.") }
            ?: HttpStatus.getMessage(status)
}
