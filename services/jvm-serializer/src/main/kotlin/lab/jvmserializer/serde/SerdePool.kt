package lab.jvmserializer.serde

import lab.jvmserializer.DocumentSettings
import java.util.concurrent.Future
import java.util.concurrent.FutureTask
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.ThreadFactory
import java.util.concurrent.ThreadPoolExecutor
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import java.util.concurrent.atomic.AtomicLong

/**
 * The one fixed pool of `json-multithreaded`, shared by every run of the service: two concurrent runs queue their
 * chunks here side by side instead of each starting threads of its own (the multithreaded-json experiment built a
 * dispatcher per run, which is part of why its N = 10 was 37 % slower). A plain executor rather than coroutines: the
 * work is blocking CPU-bound kotlinx calls made from a blocking Jetty thread, so coroutines would only wrap it in
 * runBlocking; the executor gives an exact busy count, a queue the tests can look at, and InterruptedException where a
 * run waits (the 503 path).
 */
class SerdePool(val threads: Int) : AutoCloseable {
    init {
        require(threads >= 1) { "the serde pool needs at least one thread, got $threads" }
    }

    private val busy = AtomicInteger()
    private val created = AtomicInteger()
    private val submitted = AtomicLong()
    private val executor = ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, LinkedBlockingQueue(), Factory())

    /** Pool threads running a chunk right now (a run's own thread helping with its chunks is not counted). */
    fun busyThreads(): Int = busy.get()

    /** Chunks waiting for a pool thread. */
    fun queuedTasks(): Int = executor.queue.size

    /** Threads this pool ever started: stays at [threads], however many runs shared it. */
    fun threadsStarted(): Int = created.get()

    /** Chunks ever queued here, by every run (those their own thread took back included). */
    fun submittedTasks(): Long = submitted.get()

    /** Queues [task] for a pool thread; [ChunkBatch] may still take it back and run it on the caller. */
    internal fun <T> submit(task: FutureTask<T>): Future<T> {
        submitted.incrementAndGet()
        executor.execute(task)
        return task
    }

    /** Takes a queued task back (true) so the caller can run it itself; false once a pool thread has it. */
    internal fun takeBack(task: Runnable): Boolean = executor.remove(task)

    /** Runs [task] on the calling thread, counted as busy only when that thread is one of the pool's. */
    internal fun <T> counted(task: () -> T): T {
        if (Thread.currentThread() !is PoolThread) return task()
        busy.incrementAndGet()
        try {
            return task()
        } finally {
            busy.decrementAndGet()
        }
    }

    fun batch(): ChunkBatch = ChunkBatch(this)

    override fun close() {
        executor.shutdownNow()
    }

    // A deep stack: json-multithreaded writes a user's document's elements here (DocumentSettings.STACK_BYTES).
    private class PoolThread(task: Runnable, name: String) : Thread(null, task, name, DocumentSettings.STACK_BYTES)

    // Daemon threads: the shutdown hook ends the process with halt() anyway, and a test's pools must not keep it alive.
    private inner class Factory : ThreadFactory {
        override fun newThread(task: Runnable): Thread =
            PoolThread(task, "serde-${created.incrementAndGet()}").apply { isDaemon = true }
    }
}
