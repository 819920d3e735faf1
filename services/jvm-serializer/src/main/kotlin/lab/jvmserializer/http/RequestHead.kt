package lab.jvmserializer.http

import lab.jvmserializer.workloads.HttpError
import lab.jvmserializer.workloads.strings
import org.eclipse.jetty.http.HttpFields
import org.eclipse.jetty.http.HttpHeader

/**
 * What a request head must be beyond its target ([RequestTarget]): the versions and expectations the lab speaks, and
 * the one transfer coding it reads. Jetty refuses most broken heads on its own ([JsonErrorHandler] words them); these
 * are the facts its answers name, and the check Jetty leaves to us.
 */
object RequestHead {
    /** What a 505 lists: Jetty speaks no other version on this connector (HTTP/2.0 as text gets 505 too). */
    val VERSIONS = listOf("HTTP/1.0", "HTTP/1.1")

    /** What a 417 lists: the only expectation HTTP defines. */
    val EXPECTATIONS = listOf("100-continue")

    private const val CHUNKED = "chunked"

    /** Every refusal of a head closes the connection: the bytes after a head we refuse cannot be trusted. */
    private val CLOSE = mapOf("Connection" to "close")

    fun versionNotSupported() = HttpError(505, "the HTTP version is not supported",
        mapOf("allowed" to strings(VERSIONS)), CLOSE)

    fun expectationFailed() = HttpError(417, "the Expect header names an expectation this service does not meet",
        mapOf("allowed" to strings(EXPECTATIONS)), CLOSE)

    fun badHead(message: String) = HttpError(400, message, headers = CLOSE)

    /**
     * Row 1: a body framed by any transfer coding but `chunked` alone. Jetty refuses a coding after `chunked`
     * (`xchunked`, `chunked, gzip`) but reads `gzip, chunked` as chunked and hands the request on, while the lab decodes
     * no coding: the body would be taken for what it is not.
     */
    fun checkTransferEncoding(fields: HttpFields) {
        val codings = fields.getValuesList(HttpHeader.TRANSFER_ENCODING).flatMap { it.split(',') }.map { it.trim() }
        if (codings.isNotEmpty() && (codings.size != 1 || !codings.single().equals(CHUNKED, ignoreCase = true))) {
            throw badHead("Transfer-Encoding may only be $CHUNKED")
        }
    }
}
