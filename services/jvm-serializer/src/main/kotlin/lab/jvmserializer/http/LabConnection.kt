package lab.jvmserializer.http

import lab.jvmserializer.workloads.HttpError
import org.eclipse.jetty.http.BadMessageException
import org.eclipse.jetty.http.HttpCompliance
import org.eclipse.jetty.http.HttpParser
import org.eclipse.jetty.http.HttpVersion
import org.eclipse.jetty.io.AbstractEndPoint
import org.eclipse.jetty.io.Connection
import org.eclipse.jetty.io.EndPoint
import org.eclipse.jetty.server.Connector
import org.eclipse.jetty.server.HttpConfiguration
import org.eclipse.jetty.server.HttpConnectionFactory
import org.eclipse.jetty.server.internal.HttpConnection
import java.util.concurrent.TimeUnit
import java.util.concurrent.TimeoutException

/**
 * Jetty's HTTP/1.1 connection with the lab's two additions:
 * - each request target is checked exactly as it was sent ([RequestTarget.parse]) before Jetty parses it. Jetty
 *   normalizes a target (`/run/../healthz` becomes `/healthz`) and refuses some on its own rules (an empty segment, a
 *   Host that differs from an absolute URL's), so neither its view nor its verdict is the contract's. A refused target
 *   is handed on to Jetty as `/`: the request still reaches [LabHandler], which answers the refusal after the method
 *   check, in the contract's order.
 * - each request head must arrive within [headTimeoutMs] of its first byte ([HeadDeadlineParser]; 0: no limit), or it
 *   is answered 408 and the connection closes, as in the Node services.
 * - a body the route reads whole ([BodyReader]) must arrive by a deadline too ([readBodyBy]).
 *
 * One request at a time per HTTP/1.1 connection: Jetty does not start the next request's stream before this one is
 * done, and [LabHandler] takes the result first thing.
 */
class LabConnection(config: HttpConfiguration, connector: Connector, endPoint: EndPoint, headTimeoutMs: Long) :
    HttpConnection(config, connector, endPoint) {
    @Volatile
    private var checked: Result<RequestTarget>? = null

    // Built by Jetty's constructor (newHttpParser below), before this class's own fields exist.
    private val headParser get() = parser as HeadDeadlineParser

    init {
        headParser.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(headTimeoutMs)
    }

    /** System.nanoTime() of the current request's first byte: REQUEST_TIMEOUT_MS counts from it. */
    val requestStartedNanos: Long get() = headParser.requestStartedNanos

    /** System.nanoTime() by which the body being read must have arrived; null while none is read against one. */
    @Volatile
    private var bodyDeadline: Long? = null

    /**
     * Until [readBodyBy] is called again with null, the connection's idle timeout is cut to what is left of
     * [deadlineNanos], as it is for a head: Jetty then fails the blocked read of a body whose bytes come too slowly to
     * finish by it, however steadily they trickle (each byte restarts the idle timeout, not this).
     */
    fun readBodyBy(deadlineNanos: Long?) {
        bodyDeadline = deadlineNanos
        followDeadlines()
    }

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

    override fun newHttpParser(compliance: HttpCompliance): HttpParser =
        HeadDeadlineParser(super.newHttpParser(compliance).handler as HttpParser.RequestHandler, httpConfiguration, compliance)

    override fun onFillable() {
        super.onFillable()
        followDeadlines()
    }

    /**
     * While a head is arriving, or a body is read against a deadline, the idle timeout is cut to what is left of the
     * deadline, so a client that has gone silent is ended on time too; otherwise it is the connector's. While
     * stopping, Jetty has lowered every idle timeout: left alone.
     */
    private fun followDeadlines() {
        if (connector.isShutdown) return
        val idle = connector.idleTimeout
        val left = headParser.nanosLeft() ?: bodyDeadline?.let { it - System.nanoTime() }
        endPoint.idleTimeout = if (left == null) idle else (TimeUnit.NANOSECONDS.toMillis(left) + 1).coerceIn(1, idle)
    }

    /** Jetty fails the read interest of a connection idle for its idle timeout; in the middle of a head, that is a 408. */
    override fun onFillInterestedFailed(cause: Throwable) {
        if (cause is TimeoutException && headParser.timeOut()) return
        super.onFillInterestedFailed(cause)
    }

    /**
     * Jetty 12.1's endpoint, at its idle timeout, fails the read interest (mid-head, [onFillInterestedFailed] answers
     * 408) or a pending write; if there is neither and the connection reports no request being handled, it closes the
     * connection without a word (AbstractEndPoint.onIdleExpired). Two moments of a head's deadline are like that, and
     * the idle timeout cut to the deadline ([followDeadlines]) can be 1 ms, so on a loaded machine they were hit:
     * - a read is running (it took the interest) and has not yet asked again or refused the head. The interest is
     *   failed here if there is one; if not, the connection stays open: that read answers 408 once the deadline has
     *   passed ([HeadDeadlineParser.parseNext]) or asks for more, and Jetty's rescheduled idle check comes back.
     * - the head is refused and its 408 is being written by a pool thread (Jetty hands the refusal to one): not a
     *   request Jetty counts as handled. The 408 gets the connector's idle timeout, as any response does; Jetty closes
     *   the connection after it.
     */
    override fun onIdleExpired(timeout: TimeoutException): Boolean {
        val readInterest = (endPoint as? AbstractEndPoint)?.fillInterest ?: return super.onIdleExpired(timeout)
        if (headParser.nanosLeft() != null) {
            readInterest.onFail(timeout)
            return false
        }
        if (headParser.timedOut && !connector.isShutdown && endPoint.idleTimeout < connector.idleTimeout) {
            endPoint.idleTimeout = connector.idleTimeout
            return false
        }
        return super.onIdleExpired(timeout)
    }

    /** Jetty's HttpConnectionFactory, making [LabConnection]s (as its own newConnection, 12.1.x). */
    class Factory(config: HttpConfiguration, private val headTimeoutMs: Long) : HttpConnectionFactory(config) {
        override fun newConnection(connector: Connector, endPoint: EndPoint): Connection {
            val connection = LabConnection(httpConfiguration, connector, endPoint, headTimeoutMs)
            connection.setTransferEncodingChunkMaxLength(transferEncodingChunkMaxLength)
            return configure(connection, connector, endPoint)
        }
    }
}
