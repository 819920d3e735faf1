package lab.jvmserializer.http

import lab.jvmserializer.workloads.HttpError
import lab.jvmserializer.workloads.strings
import org.eclipse.jetty.http.HttpHeader
import org.eclipse.jetty.server.Request
import java.io.File

/**
 * Keeps other sites' web pages away from every route but /healthz and /metrics (CONTRACT.md, issue 57):
 * - a DNS name a page controls can be rebound to 127.0.0.1 so that its script reads the answers as its own origin
 *   (the stored documents' ids in a run's 404, the service's settings), so the Host must name this server: an IP
 *   literal, localhost, *.localhost, this machine's name, or one of [names] (the service's compose name and
 *   LAB_HOST_NAMES). A request without Host (HTTP/1.0) is not a browser's.
 * - a GET or HEAD whose browser says it comes from another site's page (`Sec-Fetch-Site: cross-site`) is refused unless
 *   the user navigated there (a link followed: `Sec-Fetch-Mode: navigate` into a `document`, the Fetch Metadata
 *   resource isolation policy): such a page cannot read the answer, but it must not start runs blind either.
 *   `same-site` passes on a GET.
 * - any other method must carry no Origin but the server's own and a Sec-Fetch-Site of `same-origin` or `none`, as
 *   node-kit/cross-site.js asks: a browser sends both on every cross-origin request that changes something.
 * Clients that are not browsers (curl, the load driver, the tests) send neither header and pass.
 */
class SameSite(names: List<String>) {
    private val names: Set<String> = (listOf("localhost", hostName()) + names).map { it.lowercase() }.toSet()

    fun check(request: Request) {
        val host = request.headers.get(HttpHeader.HOST)
        val reads = request.method == "GET" || request.method == "HEAD"
        // A refused request that may carry a body leaves it unread: the connection cannot be trusted to go on.
        val close = if (reads) emptyMap() else CLOSE
        if (host != null && !isOwn(host)) {
            throw HttpError(403, "Host \"$host\" is not one of this server's names",
                mapOf("allowed" to strings(listOf("an IP address", "localhost") + names.filter { it != "localhost" })), close)
        }
        val site = request.headers.get("Sec-Fetch-Site")
        if (reads) {
            if (site == CROSS_SITE && !isNavigation(request)) {
                throw HttpError(403, "a ${request.method} from another site's page (Sec-Fetch-Site $site) is refused",
                    mapOf("allowed" to strings(READ_FETCH_SITES)))
            }
            return
        }
        val origin = request.headers.get(HttpHeader.ORIGIN)
        if (origin != null && !origin.equals("http://$host", ignoreCase = true)) {
            throw HttpError(403, "a ${request.method} from another site's page (Origin \"$origin\") is refused",
                mapOf("allowed" to strings(listOf("Origin http://$host", "no Origin"))), CLOSE)
        }
        if (site != null && site !in OWN_FETCH_SITES) {
            throw HttpError(403, "a ${request.method} from another site's page (Sec-Fetch-Site $site) is refused",
                mapOf("allowed" to strings(OWN_FETCH_SITES)), CLOSE)
        }
    }

    /** A top-level navigation the user made: into a document, not an embed (an iframe, an image). */
    private fun isNavigation(request: Request): Boolean =
        request.headers.get("Sec-Fetch-Mode") == "navigate" && (request.headers.get("Sec-Fetch-Dest") ?: "document") == "document"

    private fun isOwn(host: String): Boolean {
        val name = nameOf(host)
        return isIpLiteral(name) || name == "localhost" || name.endsWith(".localhost") || name in names
    }

    companion object {
        private val CLOSE = mapOf("Connection" to "close")
        private val OWN_FETCH_SITES = listOf("same-origin", "none")
        private const val CROSS_SITE = "cross-site"
        private val READ_FETCH_SITES = listOf("same-origin", "same-site", "none", "a navigation")
        private val IPV4 = Regex("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})")

        /** A Host header's name, without its port and an IPv6 literal's brackets, lower case. */
        fun nameOf(host: String): String {
            Regex("^\\[([^\\]]*)](?::\\d*)?$").find(host)?.let { return it.groupValues[1].lowercase() }
            return host.replace(Regex(":\\d*$"), "").lowercase()
        }

        /** An address no DNS answer can rebind: dotted IPv4, or an IPv6 literal (hex digits and colons). */
        fun isIpLiteral(name: String): Boolean =
            IPV4.matchEntire(name)?.groupValues?.drop(1)?.all { it.toInt() <= 255 } == true ||
                (name.contains(':') && name.all { it.isDigit() || it in 'a'..'f' || it == ':' || it == '.' })

        /** The kernel's name for this machine, as Node's os.hostname() reads it: no DNS lookup that could hang. */
        private fun hostName(): String =
            runCatching { File("/proc/sys/kernel/hostname").readText().trim() }.getOrNull()?.takeIf { it.isNotEmpty() }
                ?: System.getenv("HOSTNAME") ?: "localhost"

    }
}
