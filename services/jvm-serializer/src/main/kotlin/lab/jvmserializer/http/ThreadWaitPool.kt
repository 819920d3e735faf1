package lab.jvmserializer.http

import lab.jvmserializer.metrics.LabMetrics
import org.eclipse.jetty.util.thread.QueuedThreadPool
import java.util.concurrent.ThreadFactory

/**
 * Jetty's fixed pool of [threads], timing how long each job waited for a thread: the JVM's stand-in for an event
 * loop's lag. A connection's bytes are read and its request handled by a job of this pool, so while every handler
 * thread is busy (long runs) a new request's job waits in the queue, unparsed, and that wait is what its client feels
 * before any code of ours runs. Reserved threads off, as [LabServer] says why; threads of stackBytes each.
 */
class ThreadWaitPool(threads: Int, private val metrics: LabMetrics, stackBytes: Long) :
    QueuedThreadPool(threads, threads, 60_000, 0, null, null, ThreadFactory { task -> Thread(null, task, "http", stackBytes) }) {
    override fun execute(job: Runnable) {
        val queued = System.nanoTime()
        super.execute {
            metrics.observeThreadWait(System.nanoTime() - queued)
            job.run()
        }
    }
}
