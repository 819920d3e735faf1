package lab.jvmserializer

import lab.jvmserializer.payloads.digestOf
import lab.jvmserializer.workloads.IntParam
import lab.jvmserializer.workloads.RunParams
import lab.jvmserializer.workloads.RunRequest
import lab.jvmserializer.workloads.RunResult
import lab.jvmserializer.workloads.Workload
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit

/**
 * Test fixtures that reach the server's side of a case deterministically. [HeldWorkload] holds each run until
 * [release] and counts [entered] down as runs start; it answers with the real digest of its `n` parameter's bytes.
 */
class HeldWorkload(runs: Int = 1) : Workload {
    val entered = CountDownLatch(runs)
    val release = CountDownLatch(1)
    override val name = "held"
    override val approaches = listOf("wait")
    override val params = listOf(IntParam("n", 1, 0, 9))
    override fun caseOf(params: RunParams) = "held"
    override fun run(request: RunRequest): RunResult {
        entered.countDown()
        check(release.await(60, TimeUnit.SECONDS)) { "never released" }
        val digest = digestOf(request.params.int("n").toString().encodeToByteArray())
        return RunResult(1.0, digest.bytes, digest.sha256, validated = true, reference = "test")
    }
}

/** Answers with an output that does not match its reference, or throws, as its approach says. */
class BrokenWorkload : Workload {
    override val name = "broken"
    override val approaches = listOf("wrong", "throws")
    override val params = emptyList<IntParam>()
    override fun caseOf(params: RunParams) = "broken"
    override fun run(request: RunRequest): RunResult = when (request.approach) {
        "wrong" -> RunResult(1.0, 0, digestOf(ByteArray(0)).sha256, validated = false, reference = "test")
        else -> throw IllegalStateException("the approach failed")
    }
}
