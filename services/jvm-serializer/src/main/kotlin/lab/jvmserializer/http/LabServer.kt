package lab.jvmserializer.http

import com.sun.net.httpserver.HttpExchange
import com.sun.net.httpserver.HttpServer
import io.prometheus.metrics.exporter.httpserver.MetricsHandler
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import lab.jvmserializer.BuildInfo
import lab.jvmserializer.Config
import lab.jvmserializer.metrics.LabMetrics
import lab.jvmserializer.workloads.HttpError
import lab.jvmserializer.workloads.Workload
import lab.jvmserializer.workloads.strings
import java.net.InetSocketAddress
import java.util.concurrent.ArrayBlockingQueue
import java.util.concurrent.ThreadFactory
import java.util.concurrent.ThreadPoolExecutor
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger

/**
 * The contract's routes on the JDK's HttpServer. One root context routes every path itself, so unknown paths get
 * the contract's JSON 404 and every request is timed under its route pattern.
 */
class LabServer(private val config: Config, workloads: List<Workload>, val metrics: LabMetrics = LabMetrics()) {
    private val info = BuildInfo.info(workloads)
    private val runRoute = RunRoute(workloads, metrics, config.maxConcurrentRuns, config.runBudget)
    private val metricsHandler = MetricsHandler(metrics.registry)
    private val inFlight = InFlight()
    private val executor = ThreadPoolExecutor(
        config.httpThreads, config.httpThreads, 0L, TimeUnit.MILLISECONDS,
        ArrayBlockingQueue(config.httpQueue), NamedThreads("http"),
    )
    private val server: HttpServer = HttpServer.create(InetSocketAddress(config.host, config.port), 0).apply {
        executor = this@LabServer.executor
        createContext("/") { exchange -> route(exchange) }
    }

    @Volatile
    var shuttingDown = false
        private set

    /** Starts listening; returns the bound port (useful with PORT=0). */
    fun start(): Int {
        server.start()
        return server.address.port
    }

    /** /healthz answers 503 from now on; requests are still served until [stop]. */
    fun beginShutdown() {
        shuttingDown = true
    }

    /**
     * Stops accepting, lets in-flight exchanges finish, then closes every connection (idle keep-alive ones too).
     * Returns false if some exchange was still running after [timeoutMs].
     */
    fun stop(timeoutMs: Long): Boolean {
        beginShutdown()
        val deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs)
        // JDK 17's HttpServer.stop(delay) closes the listener at once but then sleeps the whole delay when nothing is
        // in flight (JDK-8304065, fixed in 21). So: let one call close the listener and wait in the background, count
        // in-flight exchanges ourselves, and end with stop(0), which closes all connections without waiting.
        val delaySeconds = ((timeoutMs + 999) / 1000).toInt()
        Thread({ server.stop(delaySeconds) }, "http-stop-accepting").apply { isDaemon = true }.start()
        val drained = inFlight.awaitNone(deadline)
        server.stop(0)
        executor.shutdown()
        return drained && executor.awaitTermination(maxOf(0L, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)
    }

    private fun route(exchange: HttpExchange) {
        val started = System.nanoTime()
        inFlight.enter()
        val path = exchange.requestURI.path
        val get = exchange.requestMethod == "GET"
        val route = when {
            get && path == "/healthz" -> "/healthz"
            get && path == "/metrics" -> "/metrics"
            get && path == "/info" -> "/info"
            get && RUN_PATH.matches(path) -> "/run/:workload"
            else -> UNMATCHED
        }
        try {
            exchange.use {
                try {
                    when (route) {
                        "/healthz" -> healthz(exchange)
                        "/metrics" -> metricsHandler.handle(exchange)
                        "/info" -> exchange.sendJson(200, info)
                        "/run/:workload" -> runRoute.handle(exchange, RUN_PATH.matchEntire(path)!!.groupValues[1])
                        else -> throw HttpError(404, "no route ${exchange.requestMethod} $path", mapOf("routes" to strings(ROUTES)))
                    }
                } catch (e: HttpError) {
                    exchange.sendJson(e.status, e.body())
                } catch (e: Exception) {
                    answerFailure(exchange, e)
                }
            }
        } finally {
            val status = exchange.responseCode.takeIf { it > 0 } ?: 500
            metrics.httpDuration.labelValues(exchange.requestMethod, route, status.toString())
                .observe((System.nanoTime() - started) / 1e9)
            inFlight.exit()
        }
    }

    private fun healthz(exchange: HttpExchange) {
        if (shuttingDown) exchange.sendJson(503, JsonObject(mapOf("status" to JsonPrimitive("shutting-down"))))
        else exchange.sendJson(200, JsonObject(mapOf("status" to JsonPrimitive("ok"))))
    }

    // Only possible before the headers went out; after that the client sees the connection close early.
    private fun answerFailure(exchange: HttpExchange, e: Exception) {
        System.err.println("[${Config.SERVICE_NAME}] ${exchange.requestMethod} ${exchange.requestURI}: $e")
        if (exchange.responseCode == -1) exchange.sendJson(500, errorBody(e))
    }

    private class NamedThreads(private val prefix: String) : ThreadFactory {
        private val count = AtomicInteger()
        override fun newThread(task: Runnable) = Thread(task, "$prefix-${count.incrementAndGet()}")
    }

    companion object {
        const val UNMATCHED = "unmatched"
        val ROUTES = listOf("GET /healthz", "GET /metrics", "GET /info", "GET /run/:workload")
        private val RUN_PATH = Regex("/run/([^/]+)")
    }
}
