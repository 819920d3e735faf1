package lab.jvmserializer

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.jsonObject
import java.io.ByteArrayOutputStream
import java.io.IOException
import java.io.InputStream
import java.net.Socket
import java.net.SocketTimeoutException

/** A response read off a plain socket: header names lowercased, the body as text. */
class RawResponse(val status: Int, val headers: Map<String, String>, val body: String) {
    fun json(): JsonObject = Json.parseToJsonElement(body).jsonObject
}

/**
 * Exactly the bytes a test wants on the wire, which HttpClient would refuse to send (unknown methods, broken
 * targets, stalled heads). Latin-1, so each character is one byte.
 */
object RawHttp {
    /** A socket to the service, with a timeout generous enough that only a hang trips it. */
    fun connect(port: Int): Socket = Socket("127.0.0.1", port).apply { soTimeout = 30_000 }

    fun Socket.send(text: String) {
        getOutputStream().write(text.toByteArray(Charsets.ISO_8859_1))
        getOutputStream().flush()
    }

    /** Sends [head] (a whole request) on a new connection and reads one response; [bodyless] for HEAD. */
    fun exchange(port: Int, head: String, bodyless: Boolean = false): RawResponse = connect(port).use { socket ->
        socket.send(head)
        readResponse(socket.getInputStream(), bodyless)
    }

    /** Reads one response: status line, headers, then a Content-Length body. */
    fun readResponse(input: InputStream, bodyless: Boolean = false): RawResponse {
        val head = readHead(input)
        val lines = head.split("\r\n")
        val status = lines.first().split(' ')[1].toInt()
        val headers = lines.drop(1).filter { ':' in it }
            .associate { it.substringBefore(':').trim().lowercase() to it.substringAfter(':').trim() }
        val length = if (bodyless) 0 else headers["content-length"]?.toInt() ?: error("no Content-Length in $head")
        return RawResponse(status, headers, String(input.readNBytes(length), Charsets.UTF_8))
    }

    /** True once the server closed the connection: end of stream (or a reset) before the generous timeout. */
    fun closedByServer(input: InputStream): Boolean = try {
        input.read() == -1
    } catch (e: SocketTimeoutException) {
        false
    } catch (e: IOException) {
        true // reset
    }

    private fun readHead(input: InputStream): String {
        val out = ByteArrayOutputStream()
        while (!out.toString(Charsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            val b = input.read()
            if (b == -1) throw IOException("connection closed before a response head; got '$out'")
            out.write(b)
        }
        return out.toString(Charsets.ISO_8859_1).removeSuffix("\r\n\r\n")
    }
}
