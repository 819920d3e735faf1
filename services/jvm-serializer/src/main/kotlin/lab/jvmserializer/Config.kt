package lab.jvmserializer

import lab.jvmserializer.memory.UploadMemory

/** Every setting of the service: read from the environment once, each with its default (listed in the README). */
data class Config(
    val host: String = "0.0.0.0",
    val port: Int = DEFAULT_PORT,
    /**
     * Jetty's threads that run requests (its acceptor and selector threads come on top). Runs hold at most
     * [maxConcurrentRuns] of them, so the rest keep /healthz and /metrics answered during long runs; a connection still
     * waiting for the rest of its request head holds none.
     */
    val httpThreads: Int = 8,
    /** A connection that sends and receives nothing for this long is closed (a request still running is not cut). */
    val idleTimeoutMs: Long = 30_000,
    /**
     * A request head must arrive within this long of its first byte, however steadily it trickles, or it is answered
     * 408 and the connection closes (the Node services' HEADERS_TIMEOUT_MS; 0: no limit).
     */
    val headersTimeoutMs: Long = 10_000,
    /**
     * The whole request, head and body, must arrive within this long of its first byte (the Node services'
     * REQUEST_TIMEOUT_MS; 0: no limit). A head gets the shorter of this and [headersTimeoutMs] ([headTimeoutMs]); the
     * one body read (PUT /documents) must be whole by then too, and also fails when no byte of it arrives for
     * [idleTimeoutMs]; an unread one Jetty does not wait for (it answers, then closes the connection).
     */
    val requestTimeoutMs: Long = 60_000,
    /** /run requests executing at once; more get 503 (as in the Node services). */
    val maxConcurrentRuns: Int = 4,
    /**
     * The sum of the weights (serde: objects) of the runs executing at once; a run that does not fit gets 503. One run
     * at the size cap fills it: a size-100000 serde run needs ~1.5 GB of the 3 GB heap (see README), while a hundred
     * size-1000 runs may share it.
     */
    val runBudget: Int = 100_000,
    /** Generated input objects kept for reuse, counted in objects (~6 KB each), not entries. */
    val inputCacheObjects: Int = 100_000,
    val shutdownTimeoutMs: Long = 8000,
    /** Threads of the pool json-multithreaded runs share: by default one per CPU the JVM sees (its container's). */
    val serdeThreads: Int = Runtime.getRuntime().availableProcessors(),
    /**
     * json-multithreaded runs on one thread below this many objects (or that many objects' worth of JSON text), where
     * a hand-off costs more than it saves: measured on 2 cores (docs/findings/jvm-serializer.md).
     */
    val serdeParallelMinObjects: Int = 64,
    /** Users' documents (PUT /documents): the store's caps and the largest and deepest document taken. */
    val documents: DocumentSettings = DocumentSettings(),
    /**
     * The heap runs and upload checks may hold at once (RUN_MEMORY_BYTES; null: [defaultRunMemory] of this JVM's
     * heap). Each reserves what its memory model says before it allocates; what does not fit now is a 503.
     */
    val runMemoryBytes: Long? = null,
    /** Names the service is reached by beside IP addresses and localhost (LAB_HOST_NAMES, with its own name). */
    val hostNames: List<String> = listOf(SERVICE_NAME),
    /** The token POST /profile asks for (LAB_PROFILE_TOKEN, shared with the load driver); null: no such route. */
    val profileToken: String? = null,
) {
    /** The time a request head gets from its first byte: the shorter of the two timeouts that are set; 0: no limit. */
    val headTimeoutMs: Long get() = listOf(headersTimeoutMs, requestTimeoutMs).filter { it > 0 }.minOrNull() ?: 0

    /** The heap runs and upload checks may hold at once: RUN_MEMORY_BYTES, else [defaultRunMemory]. */
    val runMemory: Long get() = runMemoryBytes ?: defaultRunMemory(Runtime.getRuntime().maxMemory(), documents.maxBytes)

    companion object {
        const val SERVICE_NAME = "jvm-serializer"
        const val DEFAULT_PORT = 3004

        /** What the service holds outside runs and uploads: classes' data, Jetty's buffers, metrics, caches' bookkeeping. */
        const val SERVICE_OWN_BYTES = 64L shl 20

        /**
         * The heap left to runs and upload checks: the heap, less an eighth left free so that G1 can collect and place
         * large arrays (each a run of free regions), less the stored documents' texts (two bytes a character at worst,
         * one byte of UTF-8 each at least), less the service's own. At -Xmx3g: about 2.4 GiB.
         */
        fun defaultRunMemory(maxHeap: Long, storedTextBytes: Int): Long =
            maxHeap - maxHeap / 8 - 2L * storedTextBytes - SERVICE_OWN_BYTES

        fun fromEnvironment(env: Map<String, String> = System.getenv()): Config {
            fun value(name: String): String? = env[name]?.takeIf { it.isNotBlank() }
            fun long(name: String): Long? {
                val raw = value(name) ?: return null
                val parsed = raw.toLongOrNull() ?: throw IllegalArgumentException("$name must be an integer, got '$raw'")
                require(parsed >= 1) { "$name must be at least 1, got $parsed" }
                return parsed
            }
            fun int(name: String, default: Int, min: Int): Int {
                val raw = value(name) ?: return default
                val parsed = raw.toIntOrNull() ?: throw IllegalArgumentException("$name must be an integer, got '$raw'")
                require(parsed >= min) { "$name must be at least $min, got $parsed" }
                return parsed
            }
            val defaults = Config()
            return Config(
                host = value("HOST") ?: defaults.host,
                port = int("PORT", defaults.port, 0),
                httpThreads = int("HTTP_THREADS", defaults.httpThreads, 2),
                idleTimeoutMs = int("IDLE_TIMEOUT_MS", defaults.idleTimeoutMs.toInt(), 1).toLong(),
                headersTimeoutMs = int("HEADERS_TIMEOUT_MS", defaults.headersTimeoutMs.toInt(), 0).toLong(),
                requestTimeoutMs = int("REQUEST_TIMEOUT_MS", defaults.requestTimeoutMs.toInt(), 0).toLong(),
                maxConcurrentRuns = int("MAX_CONCURRENT_RUNS", defaults.maxConcurrentRuns, 1),
                runBudget = int("RUN_BUDGET", defaults.runBudget, 1),
                inputCacheObjects = int("INPUT_CACHE_OBJECTS", defaults.inputCacheObjects, 0),
                shutdownTimeoutMs = int("SHUTDOWN_TIMEOUT_MS", defaults.shutdownTimeoutMs.toInt(), 0).toLong(),
                serdeThreads = int("SERDE_THREADS", defaults.serdeThreads, 1),
                serdeParallelMinObjects = int("SERDE_PARALLEL_MIN_OBJECTS", defaults.serdeParallelMinObjects, 1),
                documents = DocumentSettings(
                    maxCount = int("DOCUMENTS_MAX_COUNT", defaults.documents.maxCount, 1),
                    maxBytes = int("DOCUMENTS_MAX_BYTES", defaults.documents.maxBytes, 1),
                    maxDocumentBytes = int("DOCUMENT_MAX_BYTES", defaults.documents.maxDocumentBytes, 1),
                    maxDepth = int("DOCUMENT_MAX_DEPTH", defaults.documents.maxDepth, 1),
                ),
                runMemoryBytes = long("RUN_MEMORY_BYTES"),
                hostNames = listOf(SERVICE_NAME) + (value("LAB_HOST_NAMES") ?: "").split(',').map(String::trim).filter(String::isNotEmpty),
                profileToken = value("LAB_PROFILE_TOKEN"),
            ).also {
                require(it.httpThreads > it.maxConcurrentRuns) {
                    "HTTP_THREADS (${it.httpThreads}) must exceed MAX_CONCURRENT_RUNS (${it.maxConcurrentRuns}) so /healthz stays answered"
                }
                val scan = UploadMemory.SCAN_PER_BYTE * it.documents.maxDocumentBytes
                require(it.runMemory >= scan) {
                    "the heap runs may hold (RUN_MEMORY_BYTES or its default, ${it.runMemory}) must hold the check of the largest " +
                        "document taken (DOCUMENT_MAX_BYTES ${it.documents.maxDocumentBytes} × ${UploadMemory.SCAN_PER_BYTE} = $scan): raise the heap or lower DOCUMENT_MAX_BYTES"
                }
            }
        }
    }
}

/**
 * The caps of users' documents, under the Node services' names and defaults (node-kit/document-store.js'
 * documentSettings). Every document approach runs at [maxDepth] (tested at it) because the threads that run them have
 * [STACK_BYTES] of stack. Byte caps are Ints: a JVM String or array holds at most 2^31 - 1 characters anyway.
 */
data class DocumentSettings(
    val maxCount: Int = 8,
    val maxBytes: Int = 64 * 1024 * 1024,
    val maxDocumentBytes: Int = 64 * 1024 * 1024,
    val maxDepth: Int = 2000,
) {
    companion object {
        /**
         * The stack of the threads that read and write users' documents (Jetty's request threads, the serde pool's).
         * kotlinx writes a JsonElement recursively, about 1.4 KB of stack per level of objects before the JIT has
         * compiled it: on the JVM's default 1 MB stack a cold service overflowed at 700 levels. 16 MB takes the
         * Node services' 2000 with room to spare; it is address space, committed only as deep as a thread goes.
         */
        const val STACK_BYTES = 16L shl 20
    }
}
