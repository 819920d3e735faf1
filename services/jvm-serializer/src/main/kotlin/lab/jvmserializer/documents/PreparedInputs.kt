package lab.jvmserializer.documents

import lab.jvmserializer.memory.MemoryBudget
import java.util.concurrent.locks.ReentrantLock
import kotlin.concurrent.withLock

/**
 * The input of document runs (an approach's parsed tree, [DocumentApproach.prepare]), made before any timing and the
 * last one kept: the try suite runs one approach after another on one document, and parsing a large one again for each
 * run costs seconds. A kept tree holds its share of the [budget] (its model's [lab.jvmserializer.memory.MemoryModel.treeBytes])
 * as long as it is kept or used; it is only kept for speed, so it is dropped when a reservation would not fit
 * otherwise, and its share returns once the last run using it ends.
 */
class PreparedInputs(private val budget: MemoryBudget) {
    /** A prepared input and the runs using it. */
    inner class Prepared internal constructor(
        val kind: String,
        val sha256: String,
        val input: Any,
        private val reservation: MemoryBudget.Reservation,
    ) : AutoCloseable {
        internal var users = 1
        internal var kept = true

        /** The run is done with it. */
        override fun close() = release(this)

        internal fun free() = reservation.close()
    }

    private var last: Prepared? = null
    private val lock = ReentrantLock()

    init {
        budget.onShort(::dropIdle)
    }

    /**
     * The input of [approach] for [document] (the kept one, or made now, replacing it); a 503 when the budget cannot
     * take a new tree. The caller closes it when its run ends.
     */
    fun take(approach: DocumentApproach<*, *>, document: UserDocument): Prepared = lock.withLock {
        last?.let { if (it.kind == approach.inputKind && it.sha256 == document.sha256) return it.also { p -> p.users++ } }
        // Parsing happens under the lock, so that two runs never build the same tree twice.
        last?.let(::forget) // the old tree is garbage before the new one is built, unless a run still uses it
        val reservation = budget.reserve(approach.memory.treeBytes(document.check.shape), "a parsed tree of this document for ${approach.inputKind}")
        val input = try {
            approach.prepare(document.text)
        } catch (e: Throwable) {
            reservation.close()
            throw e
        }
        return Prepared(approach.inputKind, document.sha256, input, reservation).also { last = it }
    }

    private fun release(prepared: Prepared) = lock.withLock {
        prepared.users--
        if (prepared.users == 0 && !prepared.kept) prepared.free()
    }

    /**
     * Drops the kept tree if no run uses it; true if that freed its share. Never waits for the lock (a thread parsing
     * a tree holds it, and may itself be asking the budget for room): false then.
     */
    private fun dropIdle(): Boolean {
        if (!lock.tryLock()) return false
        try {
            val kept = last ?: return false
            if (kept.users > 0) return false
            forget(kept)
            return true
        } finally {
            lock.unlock()
        }
    }

    private fun forget(prepared: Prepared) {
        prepared.kept = false
        if (last === prepared) last = null
        if (prepared.users == 0) prepared.free()
    }
}
