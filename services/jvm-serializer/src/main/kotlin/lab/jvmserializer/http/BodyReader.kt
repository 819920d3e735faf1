package lab.jvmserializer.http

import kotlinx.serialization.json.JsonPrimitive
import lab.jvmserializer.memory.MemoryBudget
import lab.jvmserializer.memory.UploadMemory
import lab.jvmserializer.workloads.HttpError
import org.eclipse.jetty.io.Content
import org.eclipse.jetty.server.Request
import java.io.ByteArrayOutputStream
import java.io.IOException
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicBoolean

/**
 * Reads a request's body whole, as a route that needs all of it does (PUT /documents), and refuses it as the Node
 * services do:
 * - 413 as soon as it passes [maxBytes] (the rest unread, the connection closed);
 * - 408 once the whole request has taken [requestTimeoutMs] from its first byte (REQUEST_TIMEOUT_MS, as the Node
 *   faces cut a request), however steadily it trickles: a byte every 5 s held a thread, and before this an upload
 *   check, for minutes;
 * - 408 when no byte of it arrived for the idle timeout (IDLE_TIMEOUT_MS): Jetty fails the blocked read.
 * Both 408s close the connection and free the thread. [LabConnection] cuts the idle timeout to the deadline while the
 * body is read, so a read blocked on a slow client ends by the deadline, not at the next byte. Bodies are read side by
 * side (none holds a check while it arrives), so each grows its [MemoryBudget.Reservation] as it arrives, by
 * [UploadMemory.READ_PER_BYTE] per byte, and one the budget cannot take is refused with 503.
 */
class BodyReader(private val maxBytes: Int, private val requestTimeoutMs: Long) {
    fun read(request: Request, share: MemoryBudget.Reservation): ByteArray {
        val connection = request.connectionMetaData as? LabConnection
        val deadline = if (requestTimeoutMs > 0 && connection != null) {
            connection.requestStartedNanos + TimeUnit.MILLISECONDS.toNanos(requestTimeoutMs)
        } else null
        val out = ByteArrayOutputStream()
        val buffer = ByteArray(1 shl 16)
        val waiting = AtomicBoolean(false)
        request.setAttribute(WAITING, waiting)
        connection?.readBodyBy(deadline)
        try {
            Content.Source.asInputStream(request).use { input ->
                while (true) {
                    waiting.set(true)
                    val n = try {
                        input.read(buffer)
                    } finally {
                        waiting.set(false)
                    }
                    if (n < 0) break
                    if (out.size() + n > maxBytes) throw tooLarge()
                    val need = UploadMemory.READ_PER_BYTE * (out.size() + n)
                    // Grown by doubling, so that a large body asks the budget a few dozen times, not once per read.
                    if (need > share.bytes && !share.resize(maxOf(need, minOf(2 * share.bytes, UploadMemory.READ_PER_BYTE * maxBytes)))) {
                        throw HttpError(503, "the runs and uploads in progress hold the heap this body needs; retry when they end",
                            headers = CLOSE + ("Retry-After" to "1"))
                    }
                    out.write(buffer, 0, n)
                    if (deadline != null && System.nanoTime() - deadline >= 0) throw late()
                }
            }
        } catch (e: IOException) {
            throw if (deadline != null && System.nanoTime() - deadline >= 0) late() else stalled()
        } finally {
            connection?.readBodyBy(null)
        }
        return out.toByteArray()
    }

    fun tooLarge() = HttpError(413, "the body is larger than $maxBytes bytes", mapOf("limitBytes" to JsonPrimitive(maxBytes)), CLOSE)

    private fun late() = HttpError(408, "the request did not arrive whole within $requestTimeoutMs ms of its first byte (REQUEST_TIMEOUT_MS)", headers = CLOSE)

    private fun stalled() = HttpError(408, "the body stopped arriving: no byte of it for the idle timeout (IDLE_TIMEOUT_MS)", headers = CLOSE)

    companion object {
        private val CLOSE = mapOf("Connection" to "close")
        private const val WAITING = "lab.bodyReader.waiting"

        /**
         * Whether an idle timeout now should fail [request] ([LabHandler] asks, for every request): only while a read
         * of its body waits for bytes, and then the read fails and the route answers 408. At any other moment Jetty's
         * default, to fail the request and close the connection without a word when no read or write is pending,
         * would cut a route that is computing (a large document's check takes seconds with no byte in or out, a run
         * longer) or about to answer (a failed read's 408, not yet written).
         */
        fun idleFails(request: Request): Boolean = (request.getAttribute(WAITING) as? AtomicBoolean)?.get() == true
    }
}
