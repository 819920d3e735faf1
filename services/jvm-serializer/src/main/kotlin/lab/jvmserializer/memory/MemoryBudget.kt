package lab.jvmserializer.memory

import lab.jvmserializer.workloads.HttpError
import java.util.concurrent.CopyOnWriteArrayList

/**
 * The heap that runs and upload checks may hold at once (RUN_MEMORY_BYTES): each reserves what the memory model says
 * it needs before it allocates, and what no reservation can take now is refused with 503 and Retry-After, before any
 * work, instead of failing midway with an OutOfMemoryError that also fails every other thread allocating then
 * (Prometheus' scrapes of /metrics among them). Something kept only to save time (a parsed tree) holds a
 * reservation too and is dropped, through [onShort], when a reservation would not fit otherwise.
 */
class MemoryBudget(val capacityBytes: Long) {
    private var heldBytes = 0L
    private val droppers = CopyOnWriteArrayList<() -> Boolean>()

    /** Bytes reserved now. */
    val held: Long @Synchronized get() = heldBytes

    /** [drop] frees something kept for speed alone and says whether it did; called without the budget's lock held. */
    fun onShort(drop: () -> Boolean) {
        droppers += drop
    }

    /** A reservation of [bytes], or null when the others hold too much even after dropping what is kept for speed. */
    fun tryReserve(bytes: Long): Reservation? {
        if (take(bytes)) return Reservation(bytes)
        for (drop in droppers) if (drop() && take(bytes)) return Reservation(bytes)
        return null
    }

    /** [tryReserve], or a 503 with Retry-After saying what [what] needs and what is held. */
    fun reserve(bytes: Long, what: String): Reservation = tryReserve(bytes) ?: throw busy(bytes, what)

    fun busy(bytes: Long, what: String) = HttpError(503,
        "$what needs ${mib(bytes)} MiB of heap and the runs and uploads in progress hold ${mib(held)} of the " +
            "${mib(capacityBytes)} MiB they may (RUN_MEMORY_BYTES); retry when they end", headers = mapOf("Retry-After" to "1"))

    @Synchronized
    private fun take(bytes: Long): Boolean {
        if (heldBytes + bytes > capacityBytes) return false
        heldBytes += bytes
        return true
    }

    @Synchronized
    private fun give(bytes: Long) {
        heldBytes -= bytes
    }

    /** Held bytes of the budget; [resize] follows a need that changes, [close] returns them (once). */
    inner class Reservation internal constructor(bytes: Long) : AutoCloseable {
        var bytes = bytes
            private set
        private var closed = false

        /** Holds [target] bytes from now on: less always succeeds; more only if the budget has it (false if not). */
        fun resize(target: Long): Boolean {
            check(!closed) { "the reservation was closed" }
            val more = target - bytes
            if (more > 0) {
                val taken = take(more) || droppers.any { drop -> drop() && take(more) }
                if (!taken) return false
            } else give(-more)
            bytes = target
            return true
        }

        override fun close() {
            if (closed) return
            closed = true
            give(bytes)
        }
    }

    companion object {
        fun mib(bytes: Long) = (bytes + (1 shl 20) - 1) shr 20
    }
}
