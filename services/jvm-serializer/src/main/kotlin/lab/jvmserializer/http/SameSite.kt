package lab.jvmserializer.http

import lab.jvmserializer.workloads.HttpError
import lab.jvmserializer.workloads.strings
import org.eclipse.jetty.http.HttpHeader
import org.eclipse.jetty.server.Request
import java.io.File

/**
 * Keeps other sites' web pages away from a user's documents, as node-kit/cross-site.js does for the Node services'
 * document routes: a DNS name a page controls can be rebound to 127.0.0.1 so that its script reads and writes the
 * documents as its own origin, so the Host must name this server (an IP literal, localhost, *.localhost, this
 * machine's name, or one of [names]: the service's compose name and LAB_HOST_NAMES); and a PUT must carry no Origin
 * but the server's own and no Sec-Fetch-Site of another site. Clients that are not browsers (curl, the load driver,
 * the tests) send neither and pass.
 */
class SameSite(names: List<String>) {
    private val names: Set<String> = (listOf("localhost", hostName()) + names).map { it.lowercase() }.toSet()

    fun check(request: Request) {
        val host = request.headers.get(HttpHeader.HOST)
        if (host != null && !isOwn(host)) {
            throw HttpError(403, "Host \"$host\" is not one of this server's names",
                mapOf("allowed" to strings(listOf("an IP address", "localhost") + names.filter { it != "localhost" })))
        }
        if (request.method == "GET" || request.method == "HEAD") return
        val origin = request.headers.get(HttpHeader.ORIGIN)
        if (origin != null && !origin.equals("http://$host", ignoreCase = true)) {
            throw HttpError(403, "a ${request.method} from another site's page (Origin \"$origin\") is refused",
                mapOf("allowed" to strings(listOf("Origin http://$host", "no Origin"))), CLOSE)
        }
        val site = request.headers.get("Sec-Fetch-Site")
        if (site != null && site !in OWN_FETCH_SITES) {
            throw HttpError(403, "a ${request.method} from another site's page (Sec-Fetch-Site $site) is refused",
                mapOf("allowed" to strings(OWN_FETCH_SITES)), CLOSE)
        }
    }

    private fun isOwn(host: String): Boolean {
        val name = nameOf(host)
        return isIpLiteral(name) || name == "localhost" || name.endsWith(".localhost") || name in names
    }

    companion object {
        private val CLOSE = mapOf("Connection" to "close")
        private val OWN_FETCH_SITES = listOf("same-origin", "none")
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
