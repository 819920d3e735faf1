package lab.jvmserializer.http

import lab.jvmserializer.workloads.HttpError
import org.eclipse.jetty.http.BadMessageException
import org.eclipse.jetty.http.HttpVersion
import org.eclipse.jetty.io.Connection
import org.eclipse.jetty.io.EndPoint
import org.eclipse.jetty.server.Connector
import org.eclipse.jetty.server.HttpConfiguration
import org.eclipse.jetty.server.HttpConnectionFactory
import org.eclipse.jetty.server.internal.HttpConnection

/**
 * Jetty's HTTP/1.1 connection with the lab's addition:
 * - each request target is checked exactly as it was sent ([RequestTarget.parse]) before Jetty parses it. Jetty
 *   normalizes a target (`/run/../healthz` becomes `/healthz`) and refuses some on its own rules (an empty segment, a
 *   Host that differs from an absolute URL's), so neither its view nor its verdict is the contract's. A refused target
 *   is handed on to Jetty as `/`: the request still reaches [LabHandler], which answers the refusal after the method
 *   check, in the contract's order.
 *
 * One request at a time per HTTP/1.1 connection: Jetty does not start the next request's stream before this one is
 * done, and [LabHandler] takes the result first thing.
 */
class LabConnection(config: HttpConfiguration, connector: Connector, endPoint: EndPoint) :
    HttpConnection(config, connector, endPoint) {
    @Volatile
    private var checked: Result<RequestTarget>? = null

    /** The current request's checked target; throws its refusal. */
    fun target(): RequestTarget = (checked ?: throw IllegalStateException("no request target was checked")).getOrThrow()

    /** The refusal of the current request's target, if it was read and refused. */
    fun targetRefusal(): HttpError? = checked?.exceptionOrNull() as? HttpError

    override fun newHttpStream(method: String, uri: String, version: HttpVersion): HttpStreamOverHTTP1 {
        val result = runCatching { RequestTarget.parse(uri) }
        checked = result
        result.exceptionOrNull()?.let { refusal ->
            return try {
                super.newHttpStream(method, "/", version)
            } catch (e: IllegalArgumentException) {
                // CONNECT's target must be an authority, so Jetty refuses "/" as well: it answers the head itself
                // then (and closes the connection), with our refusal's words.
                throw BadMessageException((refusal as? HttpError)?.status ?: 400, refusal.message)
            }
        }
        return try {
            super.newHttpStream(method, uri, version)
        } catch (e: IllegalArgumentException) {
            // Jetty's URI parser refused a target the contract allows; still answer in JSON, as row 3.
            checked = Result.failure(HttpError(400, "the request target cannot be parsed"))
            super.newHttpStream(method, "/", version)
        }
    }

    /** Jetty's HttpConnectionFactory, making [LabConnection]s (as its own newConnection, 12.1.x). */
    class Factory(config: HttpConfiguration) : HttpConnectionFactory(config) {
        override fun newConnection(connector: Connector, endPoint: EndPoint): Connection {
            val connection = LabConnection(httpConfiguration, connector, endPoint)
            connection.setTransferEncodingChunkMaxLength(transferEncodingChunkMaxLength)
            return configure(connection, connector, endPoint)
        }
    }
}
