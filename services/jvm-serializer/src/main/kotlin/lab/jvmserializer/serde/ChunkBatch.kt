package lab.jvmserializer.serde

import java.util.concurrent.CancellationException
import java.util.concurrent.ExecutionException
import java.util.concurrent.FutureTask

/**
 * One run's chunks on the shared [SerdePool]. [submit] queues a chunk as soon as it is known (decoding submits while
 * it is still scanning); [awaitAll] makes the caller work too: it takes back every chunk no pool thread has started
 * and runs it itself, then waits for the rest. So a run never waits idle behind other runs' chunks, a small batch
 * costs no hand-off when the pool is busy, and results come back in submission order.
 *
 * A failure or an interrupt cancels every chunk not yet started (a started one finishes: kotlinx cannot be stopped
 * mid-call) and is rethrown; InterruptedException stays itself, so RunRoute answers 503 as for any interrupted run.
 */
class ChunkBatch internal constructor(private val pool: SerdePool) {
    private val tasks = ArrayList<FutureTask<*>>()

    fun <T> submit(work: () -> T) {
        val task = FutureTask { pool.counted(work) }
        tasks += task
        pool.submit(task)
    }

    val size: Int get() = tasks.size

    /** Every chunk's result in submission order. */
    @Suppress("UNCHECKED_CAST")
    fun <T> awaitAll(): List<T> {
        try {
            for (task in tasks) {
                if (Thread.interrupted()) throw InterruptedException("interrupted while running chunks")
                if (pool.takeBack(task)) task.run()
            }
            return tasks.map { task ->
                try {
                    task.get() as T
                } catch (e: ExecutionException) {
                    throw e.cause ?: e
                }
            }
        } catch (e: Throwable) {
            cancel()
            if (e is CancellationException) throw InterruptedException("chunks cancelled")
            throw e
        }
    }

    /** Drops chunks not yet started: a cancelled FutureTask also lets go of its work (and so of the run's input). */
    fun cancel() = tasks.forEach { it.cancel(false) }
}
