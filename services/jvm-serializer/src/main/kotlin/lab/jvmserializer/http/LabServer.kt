package lab.jvmserializer.http

import lab.jvmserializer.Config
import lab.jvmserializer.metrics.LabMetrics
import lab.jvmserializer.workloads.Workload
import org.eclipse.jetty.http.HttpCompliance
import org.eclipse.jetty.http.UriCompliance
import org.eclipse.jetty.server.HttpConfiguration
import org.eclipse.jetty.server.Server
import org.eclipse.jetty.server.ServerConnector
import lab.jvmserializer.DocumentSettings
import java.util.concurrent.TimeUnit

/**
 * The contract's routes ([LabHandler]) on Jetty 12 core: one HTTP/1.1 connector whose selector reads request heads
 * without a thread per connection (the JDK's HttpServer read them on its executor's threads with no time limit, so six
 * clients that stalled mid-head left /healthz unanswered), a bounded pool for the handlers, and a graceful stop.
 */
class LabServer(
    config: Config,
    workloads: List<Workload>,
    val metrics: LabMetrics = LabMetrics(),
    documents: DocumentRoutes? = null,
) {
    init {
        workloads.forEach { it.registerMetrics(metrics.registry) }
    }

    private val handler = LabHandler(config, workloads, metrics, documents)

    // A fixed pool: HTTP_THREADS for requests plus Jetty's acceptor and selector. Reserved threads off: Jetty would
    // keep some pool threads parked for its own hand-offs, and then fewer than HTTP_THREADS could take requests. The
    // job queue is Jetty's default, unbounded as Jetty advises: it holds at most one task per connection waiting for a
    // thread, and a task refused by a full queue would drop its connection unanswered.
    // Each job's wait for a thread is timed (ThreadWaitPool): the JVM's stand-in for the event-loop lag. Each thread has a
    // deep stack: a user's document is read and written on it (DocumentSettings.STACK_BYTES).
    private val threads = ThreadWaitPool(config.httpThreads + JETTY_OWN_THREADS, metrics, DocumentSettings.STACK_BYTES).apply { name = "http" }

    /** Jobs waiting for a thread of the HTTP pool now. */
    val queuedJobs: Int get() = threads.queueSize

    private val server = Server(threads).apply {
        errorHandler = JsonErrorHandler()
        handler = this@LabServer.handler
        // The graceful part of stop() is ours (below), so Jetty's own stop only closes what is left.
        stopTimeout = 0
    }

    private val connector = ServerConnector(server, ACCEPTORS, SELECTORS, LabConnection.Factory(httpConfiguration(), config.headTimeoutMs)).apply {
        host = config.host
        port = config.port
        idleTimeout = config.idleTimeoutMs
        server.addConnector(this)
    }

    /** Starts listening; returns the bound port (useful with PORT=0). */
    fun start(): Int {
        server.start()
        return connector.localPort
    }

    /** /healthz answers 503 from now on; requests are still served until [stop]. */
    fun beginShutdown() {
        handler.shuttingDown = true
    }

    /**
     * Stops accepting, lets in-flight requests finish, then closes every connection. Returns false if some request
     * was still running after [timeoutMs]; its connection is closed all the same.
     */
    fun stop(timeoutMs: Long): Boolean {
        beginShutdown()
        val deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs)
        // Stops the acceptor and lowers every connection's idle timeout to Jetty's shutdown idle timeout (1 s), so
        // idle keep-alive connections close while the busy ones finish; close() releases the listening socket now.
        connector.shutdown()
        connector.close()
        val drained = handler.inFlight.awaitNone(deadline)
        // After a clean drain the pool's threads are idle: give them the time left to end. Otherwise do not wait for
        // the stuck ones (they are not interrupted either; the process is about to exit).
        threads.stopTimeout = if (drained) maxOf(1L, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())) else 0L
        server.stop()
        metrics.close()
        return drained
    }

    private fun httpConfiguration() = HttpConfiguration().apply {
        // A request head may be up to 16 KiB, as in Node; row 2's 4096-byte target limit is checked by RequestTarget.
        requestHeaderSize = 16 * 1024
        sendServerVersion = false
        // RequestTarget has already refused what the contract refuses, on the target as sent; Jetty's stricter URI
        // rules (no empty segment, no %2F) would refuse targets the contract allows, in HTML and before our checks.
        uriCompliance = UriCompliance.UNSAFE
        // An absolute-form target names the host itself, and RFC 9112 3.2.2 says to ignore Host then; Jetty refuses
        // a mismatch unless told. Jetty's RFC9110 mode reads a bare LF as a line end, which RFC 9112 2.2 allows but
        // every face of the lab refuses (400): two parsers that split a head differently are a smuggling route.
        httpCompliance = HttpCompliance.RFC9110
            .without("RFC9110_CRLF", HttpCompliance.Violation.LF_HEADER_TERMINATION)
            .with("RFC9110_CRLF_ABSOLUTE_FORM", HttpCompliance.Violation.MISMATCHED_AUTHORITY)
    }

    private companion object {
        // One each, whatever the machine's core count, so the threads left for requests are exactly HTTP_THREADS.
        const val ACCEPTORS = 1
        const val SELECTORS = 1
        const val JETTY_OWN_THREADS = ACCEPTORS + SELECTORS
    }
}
