package lab.jvmserializer

import lab.jvmserializer.documents.DocumentStore
import lab.jvmserializer.http.DocumentRoutes
import lab.jvmserializer.http.LabServer
import lab.jvmserializer.payloads.Vectors
import lab.jvmserializer.serde.ObjectsInputs
import lab.jvmserializer.serde.SerdeWorkload
import java.util.concurrent.atomic.AtomicBoolean
import kotlin.system.exitProcess

private fun log(message: String) = println("[${Config.SERVICE_NAME}] $message")

fun main() {
    val config = try {
        Config.fromEnvironment()
    } catch (e: IllegalArgumentException) {
        System.err.println("[${Config.SERVICE_NAME}] bad setting: ${e.message}")
        exitProcess(2)
    }
    val store = DocumentStore(config.documents.maxCount, config.documents.maxBytes)
    val serde = SerdeWorkload(ObjectsInputs(Vectors.fromClasspath(), config.inputCacheObjects), config, store)
    val server = LabServer(config, listOf(serde), documents = DocumentRoutes(store, config.documents, serde.documentApproaches, serde.memory, config.requestTimeoutMs))
    val port = server.start()
    log("listening on ${config.host}:$port (max heap ${Runtime.getRuntime().maxMemory() / (1 shl 20)} MiB, " +
        "${Runtime.getRuntime().availableProcessors()} CPUs, serde pool ${config.serdeThreads} threads)")
    Runtime.getRuntime().addShutdownHook(Thread({ shutDown(server, config.shutdownTimeoutMs) }, "graceful-shutdown"))
}

/**
 * Runs in the JVM's shutdown hook (SIGTERM, SIGINT). A watchdog enforces the timeout even if a handler hangs. Both
 * paths end in halt(): a JVM ended by a signal otherwise exits 143, and the contract asks for 0 after a clean close.
 */
private fun shutDown(server: LabServer, timeoutMs: Long) {
    log("shutting down: finishing in-flight requests (at most $timeoutMs ms)")
    val exited = AtomicBoolean(false)
    fun exit(status: Int, message: String) {
        if (!exited.compareAndSet(false, true)) return
        log(message)
        System.out.flush()
        Runtime.getRuntime().halt(status)
    }
    val forced = "forced exit: requests still running after $timeoutMs ms"
    val watchdog = Thread({
        try {
            Thread.sleep(timeoutMs)
            exit(1, forced)
        } catch (e: InterruptedException) {
            // The clean path won.
        }
    }, "shutdown-watchdog")
    watchdog.isDaemon = true
    watchdog.start()
    if (server.stop(timeoutMs)) exit(0, "stopped") else exit(1, forced)
}
