package lab.jvmserializer.http

import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import lab.jvmserializer.BuildInfo
import lab.jvmserializer.Config
import lab.jvmserializer.metrics.LabMetrics
import lab.jvmserializer.workloads.HttpError
import lab.jvmserializer.workloads.Workload
import org.eclipse.jetty.server.Handler
import org.eclipse.jetty.server.Request
import org.eclipse.jetty.server.Response
import org.eclipse.jetty.util.Callback

/**
 * Every request Jetty could parse: the checks of CONTRACT.md's "Errors" in their order (method and target, then the
 * route, then the route's own), one JSON answer, and its timing under a closed set of labels. Blocking on purpose: a
 * run computes on the thread that handles it, and [RunRoute] caps how many do.
 */
class LabHandler(
    config: Config,
    workloads: List<Workload>,
    private val metrics: LabMetrics,
    documents: DocumentRoutes? = null,
) : Handler.Abstract() {
    private val info = BuildInfo.info(workloads, documents?.describe())
    private val runRoute = RunRoute(workloads, metrics, config.maxConcurrentRuns, config.runBudget)
    private val sameSite = SameSite(config.hostNames)

    /** Requests being handled or written, so a graceful stop knows when the last one is done. */
    val inFlight = InFlight()

    @Volatile
    var shuttingDown = false

    // GET only, HEAD included (405), as in every runtime of the lab: a run is never started by HEAD. PUT adds a
    // document, where the service keeps them; POST takes a profile, where the driver's token is set. Only /healthz and
    // /metrics answer under any Host: they hold no user's data, and Prometheus and orchestrators reach them by names
    // the service cannot know.
    private val routes = Routes(listOf(
        Route("/healthz", GET, anyHost = true, answer = queryChecked { healthz() }),
        Route("/metrics", GET, anyHost = true, answer = queryChecked { Answer(200, LabMetrics.CONTENT_TYPE, metrics.exposition()) }),
        Route("/info", GET, answer = queryChecked { Answer.json(200, info) }),
        Route("/run/:workload", GET, known = { runRoute.workload(it.getValue("workload")) }) { params, target, _ ->
            runRoute.handle(params.getValue("workload"), target)
        },
    ) + listOfNotNull(
        documents?.let { d -> Route("/documents", GET) { _, target, request -> target.queryParameters(); d.list() } },
        documents?.let { d -> Route("/documents", PUT) { _, target, request -> target.queryParameters(); d.put(request) } },
        config.profileToken?.let { token -> ProfileRoute(token).let { p -> Route("/profile", POST) { _, target, request -> p.handle(target, request) } } },
    ))


    override fun handle(request: Request, response: Response, callback: Callback): Boolean {
        val started = System.nanoTime()
        inFlight.enter()
        val (answer, route) = try {
            answer(request)
        } catch (e: Throwable) {
            inFlight.exit() // an Error: Jetty answers it (JsonErrorHandler); the count must not stay raised
            throw e
        }
        // While stopping, no connection is kept for another request.
        val sent = if (shuttingDown) answer.withHeader("Connection", "close") else answer
        sent.writeTo(response, object : Callback {
            override fun succeeded() = finish { callback.succeeded() }
            override fun failed(x: Throwable) = finish { callback.failed(x) }
            private fun finish(complete: () -> Unit) = try {
                complete()
            } finally {
                metrics.observeHttp(request.method, route, sent.status, (System.nanoTime() - started) / 1e9)
                inFlight.exit()
            }
        })
        return true
    }

    /** The answer, and the pattern of the route that took the request (null: none did). */
    private fun answer(request: Request): Pair<Answer, String?> {
        var route: String? = null
        return try {
            // Jetty's default at an idle timeout fails the request, closing the connection without an answer when no
            // read or write is pending: a run computing, a check, a 408 about to be written. Declined but while a
            // body's read waits for bytes ([BodyReader]); a write pending to a client that does not read is still cut.
            request.addIdleTimeoutListener { BodyReader.idleFails(request) }
            RequestTarget.checkMethod(request.method)
            RequestHead.checkTransferEncoding(request.headers)
            val connection = request.connectionMetaData as? LabConnection
                ?: throw IllegalStateException("the request target was not checked")
            val target = connection.target()
            val matched = routes.match(request.method, target)
            route = matched.route.pattern
            matched.route.known(matched.params)
            // Once the route is known (rows 4-6), before its query is read (rows 7-8): a rebound DNS name or another
            // site's page learns nothing, not even which parameters a route takes or which documents are stored.
            if (!matched.route.anyHost) sameSite.check(request)
            matched.route.answer(matched.params, target, request) to route
        } catch (e: HttpError) {
            Answer.of(e) to route
        } catch (e: Exception) {
            System.err.println("[${Config.SERVICE_NAME}] ${request.method} ${request.httpURI.path}: $e")
            Answer.failure(e) to route
        }
    }

    private fun healthz() =
        if (shuttingDown) Answer.json(503, JsonObject(mapOf("status" to JsonPrimitive("shutting-down"))))
        else Answer.json(200, JsonObject(mapOf("status" to JsonPrimitive("ok"), "runs" to JsonPrimitive(runRoute.runsInProgress))))

    private companion object {
        val GET = listOf("GET")
        val PUT = listOf("PUT")
        val POST = listOf("POST")

        /** Row 7 holds for every route's query, read or not; /run checks it itself, after its workload (row 6). */
        fun queryChecked(answer: () -> Answer): (Map<String, String>, RequestTarget, Request) -> Answer = { _, target, _ ->
            target.queryParameters()
            answer()
        }
    }
}
