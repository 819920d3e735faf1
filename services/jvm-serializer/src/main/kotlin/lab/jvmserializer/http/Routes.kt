package lab.jvmserializer.http

import lab.jvmserializer.workloads.HttpError
import org.eclipse.jetty.server.Request
import lab.jvmserializer.workloads.strings

/**
 * A route: its [pattern] (`/run/:workload`, also the metrics' `route` label), the methods it answers, and how. A
 * `:name` segment matches any one non-empty segment and is passed to [answer] decoded. [known] refuses segments that
 * name nothing (row 6: `/run/<workload>` with no such workload), before the Host check; [anyHost]: the route holds no
 * user's data and is reached under names the service cannot know (scrapers, orchestrators), so no Host is refused.
 */
class Route(
    val pattern: String,
    val methods: List<String>,
    val anyHost: Boolean = false,
    val known: (params: Map<String, String>) -> Unit = {},
    val answer: (params: Map<String, String>, target: RequestTarget, request: Request) -> Answer,
) {
    private val parts = pattern.removePrefix("/").split('/')

    fun match(segments: List<String>): Map<String, String>? {
        if (segments.size != parts.size) return null
        val params = HashMap<String, String>()
        for ((part, segment) in parts.zip(segments)) {
            when {
                part.startsWith(":") && segment.isNotEmpty() -> params[part.substring(1)] = segment
                part != segment -> return null
            }
        }
        return params
    }
}

/** A route that took a request, with the values of its `:name` segments. */
class Matched(val route: Route, val params: Map<String, String>)

/** Rows 4 and 5 of CONTRACT.md's "Errors": exact, case-sensitive, segment by segment; then the method. */
class Routes(private val routes: List<Route>) {
    /** What the 404 lists: each route with its first method. */
    val listing: List<String> = routes.map { "${it.methods.first()} ${it.pattern}" }

    fun match(method: String, target: RequestTarget): Matched {
        val byPath = routes.mapNotNull { route -> route.match(target.segments)?.let { Matched(route, it) } }
        if (byPath.isEmpty()) {
            throw HttpError(404, "no route ${target.path}", mapOf("routes" to strings(listing)))
        }
        byPath.firstOrNull { method in it.route.methods }?.let { return it }
        val allowed = byPath.flatMap { it.route.methods }.distinct()
        throw HttpError(405, "$method is not allowed on ${target.path}", mapOf("allowed" to strings(allowed)),
            headers = mapOf("Allow" to allowed.joinToString(", ")))
    }
}
