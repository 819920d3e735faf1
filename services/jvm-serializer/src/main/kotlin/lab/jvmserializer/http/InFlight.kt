package lab.jvmserializer.http

import java.util.concurrent.TimeUnit
import java.util.concurrent.locks.ReentrantLock
import kotlin.concurrent.withLock

/** Counts exchanges being handled, so a graceful stop knows when the last one has finished. */
class InFlight {
    private val lock = ReentrantLock()
    private val none = lock.newCondition()
    private var count = 0

    fun enter() = lock.withLock { count++ }

    fun exit() = lock.withLock {
        count--
        if (count == 0) none.signalAll()
    }

    /** Waits until none is in flight or [deadlineNanos] (System.nanoTime) passes; true if none is left. */
    fun awaitNone(deadlineNanos: Long): Boolean = lock.withLock {
        while (count > 0) {
            val remaining = deadlineNanos - System.nanoTime()
            if (remaining <= 0) return false
            none.await(remaining, TimeUnit.NANOSECONDS)
        }
        true
    }
}
