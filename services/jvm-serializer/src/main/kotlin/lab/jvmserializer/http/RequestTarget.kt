package lab.jvmserializer.http

import kotlinx.serialization.json.JsonPrimitive
import lab.jvmserializer.workloads.HttpError
import java.io.ByteArrayOutputStream
import java.nio.ByteBuffer
import java.nio.charset.CharacterCodingException
import java.nio.charset.CodingErrorAction

/**
 * Rows 1 (the method), 2, 3 and 7 of CONTRACT.md's "Errors" table, in one place: what a request's method and target
 * must be before any route sees them. Rows 4-6 are [Routes]' and row 8 is `workloads/Params.kt`'s; a request head that
 * Jetty itself cannot parse is answered by [JsonErrorHandler].
 *
 * A checked target: the path's segments, each percent-decoded (so `/run/%73erde` names `serde`), and the query string
 * still raw, decoded only by [queryParameters] after routing, as the table's order asks.
 */
class RequestTarget private constructor(val path: String, val segments: List<String>, private val rawQuery: String?) {

    /**
     * Row 7: the query split on `&`, then on the first `=`; `+` is a space; every escape must be well formed and
     * UTF-8. Name -> every value given, in order. Empty parts (`a=1&&b=2`) are skipped.
     */
    fun queryParameters(): Map<String, List<String>> {
        val out = LinkedHashMap<String, MutableList<String>>()
        for (part in rawQuery?.split('&').orEmpty()) {
            if (part.isEmpty()) continue
            val name = decodeQueryPart(part.substringBefore('='))
            val value = if ('=' in part) decodeQueryPart(part.substringAfter('=')) else ""
            out.getOrPut(name) { mutableListOf() }.add(value)
        }
        return out
    }

    companion object {
        /** HTTP's methods (RFC 9110 and PATCH): any other is a request head we cannot read (row 1). */
        val METHODS = listOf("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH")

        /** Row 2's limit. A request head may be up to 16 KiB (as in Node), so a longer target still reaches us. */
        const val MAX_TARGET_BYTES = 4096

        /** Row 1: 400, and the connection closes (what follows a head we cannot read cannot be trusted either). */
        fun checkMethod(method: String) {
            if (method !in METHODS) {
                throw HttpError(400, "unknown HTTP method", headers = mapOf("Connection" to "close"))
            }
        }

        /** Row 2's answer; also Jetty's, for a target longer than the whole head may be ([JsonErrorHandler]). */
        fun targetTooLong() = HttpError(414, "the request target is longer than $MAX_TARGET_BYTES bytes",
            mapOf("limitBytes" to JsonPrimitive(MAX_TARGET_BYTES)))

        /** Rows 2 and 3 on the target exactly as it was sent: the checked target, or the refusal as an [HttpError]. */
        fun parse(raw: String): RequestTarget {
            if (raw.encodeToByteArray().size > MAX_TARGET_BYTES) throw targetTooLong()
            // What no request-target may hold, raw or escaped, refused before its form is looked at. Such a target
            // is not a mistake in a URL but a head crafted to be read differently by different parsers, so the
            // connection closes as after a head that cannot be read. Jetty hands bytes over 0x7E on as text (0xFF
            // as U+FFFD) and refuses raw control bytes itself.
            if (raw.any { it !in '!'..'~' }) throw RequestHead.badHead("the request target has a byte outside visible ASCII (0x21-0x7E)")
            // A fragment never travels in a request (RFC 9112 3.2); '#' is no path or query character either.
            if ('#' in raw) throw RequestHead.badHead("a request target has no fragment (#)")
            CONTROL_ESCAPE.find(raw)?.let {
                throw RequestHead.badHead("the request target has an escape of a control character (%00-%1F, %7F): ${it.value}")
            }
            val pathAndQuery = when {
                raw.startsWith("/") -> raw
                else -> {
                    val absolute = ABSOLUTE.matchEntire(raw)
                        ?: throw badTarget("the request target must be a path (/...) or an absolute http(s) URL")
                    checkAuthority(absolute.groupValues[1])
                    absolute.groupValues[2].let { if (it.startsWith("/")) it else "/$it" } // http://a and http://a?q mean "/"
                }
            }
            val path = pathAndQuery.substringBefore('?')
            val query = if ('?' in pathAndQuery) pathAndQuery.substringAfter('?') else null
            val segments = path.substring(1).split('/').map(::decodeSegment)
            return RequestTarget(path, segments, query)
        }

        // An escaped byte 0x00-0x1F or 0x7F: in UTF-8 such a byte is always a character of its own, whatever surrounds it.
        private val CONTROL_ESCAPE = Regex("""%(?:[01][0-9A-Fa-f]|7[Ff])""")

        // scheme "://" authority, then the path and query (possibly empty). The scheme is case-insensitive (RFC 3986).
        private val ABSOLUTE = Regex("""(?i:https?)://([^/?]*)(.*)""")

        // RFC 3986's host (an IP literal of hex digits, ':' and '.', or a reg-name of unreserved and sub-delims) and an
        // optional port. No userinfo: RFC 9110 4.2.4 forbids it in http(s) URIs.
        private val AUTHORITY = Regex("""(?:\[[0-9A-Fa-f:.]+]|[A-Za-z0-9\-._~!$&'()*+,;=]+)(?::([0-9]{1,5}))?""")

        private fun checkAuthority(authority: String) {
            val match = AUTHORITY.matchEntire(authority) ?: throw badTarget("the URL's host is not a valid host[:port]")
            val port = match.groupValues[1]
            if (port.isNotEmpty() && port.toInt() > 65535) throw badTarget("the URL's port is outside 0-65535")
        }

        // RFC 3986's pchar minus '%': unreserved, sub-delims, ':' and '@'. Escapes are checked while decoding.
        private fun isPathChar(c: Char) = c in 'a'..'z' || c in 'A'..'Z' || c in '0'..'9' || c in "-._~!$&'()*+,;=:@"

        private fun decodeSegment(raw: String): String {
            raw.firstOrNull { it != '%' && !isPathChar(it) }?.let { throw badTarget("the path has a character not allowed in a path: '$it'") }
            val decoded = percentDecode(raw) ?: throw badTarget("the path has a malformed % escape or one that is not UTF-8")
            // Dot segments, raw or escaped, would let /run/../healthz name another route than the one it spells.
            if (decoded == "." || decoded == "..") throw badTarget("the path has a '.' or '..' segment")
            return decoded
        }

        private fun decodeQueryPart(raw: String): String =
            percentDecode(raw.replace('+', ' '))
                ?: throw HttpError(400, "the query string has a malformed % escape or one that is not UTF-8")

        private fun badTarget(message: String) = HttpError(400, message)

        /**
         * Strict percent-decoding: null on a `%` not followed by two hex digits or on escaped bytes that are not UTF-8.
         * java.net.URLDecoder would turn bad UTF-8 into U+FFFD and go on, so two different targets would look alike.
         */
        internal fun percentDecode(text: String): String? {
            if ('%' !in text) return text
            val out = StringBuilder(text.length)
            val bytes = ByteArrayOutputStream()
            var i = 0
            while (i < text.length) {
                if (text[i] != '%') {
                    out.append(text[i++])
                    continue
                }
                // A run of escapes is one byte sequence: a character may span several of them, never a literal char.
                bytes.reset()
                while (i < text.length && text[i] == '%') {
                    if (i + 2 >= text.length) return null
                    val high = hexValue(text[i + 1])
                    val low = hexValue(text[i + 2])
                    if (high < 0 || low < 0) return null
                    bytes.write(high * 16 + low)
                    i += 3
                }
                out.append(decodeUtf8(bytes.toByteArray()) ?: return null)
            }
            return out.toString()
        }

        // ASCII only: Character.digit would also take other scripts' digits (a fullwidth '３').
        private fun hexValue(c: Char): Int = when (c) {
            in '0'..'9' -> c - '0'
            in 'a'..'f' -> c - 'a' + 10
            in 'A'..'F' -> c - 'A' + 10
            else -> -1
        }

        private fun decodeUtf8(bytes: ByteArray): String? = try {
            Charsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes)).toString()
        } catch (e: CharacterCodingException) {
            null
        }
    }
}
