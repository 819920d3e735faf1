package lab.jvmserializer.http

import org.eclipse.jetty.http.HttpCompliance
import org.eclipse.jetty.http.HttpException
import org.eclipse.jetty.http.HttpParser
import org.eclipse.jetty.http.HttpStatus
import org.eclipse.jetty.server.HttpConfiguration
import org.eclipse.jetty.util.BufferUtil
import java.nio.ByteBuffer

/**
 * Jetty's request parser (configured as Jetty configures its own), giving each request head a deadline from its first
 * byte. Jetty has only an idle timeout, which every byte restarts: a head trickled one byte every 2 s was never cut.
 * A byte that arrives past the deadline is not parsed: the head is refused with 408 instead. [LabConnection] ends a
 * head whose client has gone silent, through [timeOut].
 */
class HeadDeadlineParser(handler: RequestHandler, config: HttpConfiguration, compliance: HttpCompliance) :
    HttpParser(handler, config.requestHeaderSize, compliance) {
    init {
        headerCacheSize = config.headerCacheSize
        isHeaderCacheCaseSensitive = config.isHeaderCacheCaseSensitive
    }

    /** How long a head may take from its first byte (0: no limit); set by [LabConnection] before any byte is parsed. */
    @Volatile
    var timeoutNanos: Long = 0

    /** System.nanoTime() by which the head being received must be complete; null while none is. */
    @Volatile
    private var deadline: Long? = null

    /**
     * System.nanoTime() of the current request's first byte (a blank line before it included), kept after its head
     * is complete: the whole request, body included, is timed from it (REQUEST_TIMEOUT_MS).
     */
    @Volatile
    var requestStartedNanos: Long = 0
        private set

    // A head is being received: its first byte has been parsed and it is not yet complete.
    private var receiving = false

    /** Nanoseconds left to the head being received (0 or less: overdue); null while none is being received. */
    fun nanosLeft(): Long? = deadline?.let { it - System.nanoTime() }

    /** Set once [timeOut] has refused a head: its 408 may still be on its way, written by one of Jetty's threads. */
    @Volatile
    var timedOut = false
        private set

    override fun parseNext(buffer: ByteBuffer): Boolean {
        // The parser stays in a head state (START) while it skips blank lines before a request: those count too.
        if (!receiving && buffer.hasRemaining() && inHeaderState()) {
            receiving = true
            requestStartedNanos = System.nanoTime()
            if (timeoutNanos > 0) deadline = requestStartedNanos + timeoutNanos
        }
        if ((nanosLeft() ?: 1) <= 0) {
            // As Jetty's parser does with a head it refuses: drop what it has not parsed, then report it.
            BufferUtil.clear(buffer)
            timeOut()
            return false
        }
        val handle = super.parseNext(buffer)
        if (!inHeaderState()) {
            deadline = null
            receiving = false
        }
        return handle
    }

    /**
     * Refuses the head being received with 408 (then Jetty answers through [JsonErrorHandler] and closes the
     * connection); false if no head was being received. Called on the connection's thread, or once its read interest
     * has failed, so never while [parseNext] runs.
     */
    fun timeOut(): Boolean {
        if (deadline == null || !inHeaderState()) return false
        timedOut = true
        deadline = null
        receiving = false
        badMessage(HttpException.RuntimeException(HttpStatus.REQUEST_TIMEOUT_408, "the request head did not arrive in time"))
        return true
    }
}
