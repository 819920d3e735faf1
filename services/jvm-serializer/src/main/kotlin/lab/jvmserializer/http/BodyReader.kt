package lab.jvmserializer.http

import kotlinx.serialization.json.JsonPrimitive
import lab.jvmserializer.workloads.HttpError
import org.eclipse.jetty.io.Content
import org.eclipse.jetty.server.Request
import java.io.ByteArrayOutputStream
import java.io.IOException
import java.util.concurrent.TimeUnit

/**
 * Reads a request's body whole, as a route that needs all of it does (PUT /documents), and refuses it as the Node
 * services do:
 * - 413 as soon as it passes [maxBytes] (the rest unread, the connection closed);
 * - 408 once the whole request has taken [requestTimeoutMs] from its first byte (REQUEST_TIMEOUT_MS, as the Node
 *   faces cut a request), however steadily it trickles: a byte every 5 s held a thread, and before this an upload
 *   check, for minutes;
 * - 408 when no byte of it arrived for the idle timeout (IDLE_TIMEOUT_MS): Jetty fails the blocked read.
 * Both 408s close the connection and free the thread. [LabConnection] cuts the idle timeout to the deadline while the
 * body is read, so a read blocked on a slow client ends by the deadline, not at the next byte.
 */
class BodyReader(private val maxBytes: Int, private val requestTimeoutMs: Long) {
    fun read(request: Request): ByteArray {
        val connection = request.connectionMetaData as? LabConnection
        val deadline = if (requestTimeoutMs > 0 && connection != null) {
            connection.requestStartedNanos + TimeUnit.MILLISECONDS.toNanos(requestTimeoutMs)
        } else null
        val out = ByteArrayOutputStream()
        val buffer = ByteArray(1 shl 16)
        connection?.readBodyBy(deadline)
        try {
            Content.Source.asInputStream(request).use { input ->
                while (true) {
                    val n = input.read(buffer)
                    if (n < 0) break
                    if (out.size() + n > maxBytes) throw tooLarge()
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

    private companion object {
        val CLOSE = mapOf("Connection" to "close")
    }
}
