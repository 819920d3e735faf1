package lab.jvmserializer.http

import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import lab.jvmserializer.Config
import lab.jvmserializer.metrics.LabMetrics
import lab.jvmserializer.metrics.Outcome
import lab.jvmserializer.metrics.RunThreadWatch
import lab.jvmserializer.workloads.HttpError
import lab.jvmserializer.workloads.Workload
import lab.jvmserializer.workloads.parseRunRequest
import lab.jvmserializer.workloads.strings
import java.util.concurrent.Semaphore
import java.util.concurrent.atomic.AtomicInteger

/**
 * GET /run/<workload>: checks the request (rows 6-8 of CONTRACT.md's "Errors"), holds one of [maxConcurrentRuns] slots and its weight of the
 * [runBudget] (503 when either is short, so parallel large runs cannot exhaust the heap), runs, and records the outcome.
 * The run's thread is watched the whole run ([RunThreadWatch]): its answer's `thread` says how much of the run's wall
 * time the thread was on a CPU and how much it waited for one, so a slow run on a busy machine shows as such.
 */
class RunRoute(
    workloads: List<Workload>,
    private val metrics: LabMetrics,
    private val maxConcurrentRuns: Int,
    private val runBudget: Int,
) {
    private val workloads = workloads.associateBy { it.name }
    private val slots = Semaphore(maxConcurrentRuns)
    private val budget = Semaphore(runBudget)
    private val inProgress = AtomicInteger()

    /**
     * Runs started and not yet ended, /healthz's `runs` (CONTRACT.md): the load driver waits for them before a
     * scenario. A run whose client went away is counted until its approach returns, which nothing here cuts short.
     */
    val runsInProgress: Int get() = inProgress.get()

    /** Row 6: the workload the path names, or its 404 naming those there are. */
    fun workload(name: String): Workload = workloads[name]
        ?: throw HttpError(404, "no workload $name", mapOf("allowed" to strings(workloads.keys.toList())))

    fun handle(workloadName: String, target: RequestTarget): Answer {
        val workload = workload(workloadName)
        val request = parseRunRequest(workload, target.queryParameters())
        val weight = minOf(workload.weightOf(request.params), runBudget)
        if (!slots.tryAcquire()) {
            throw HttpError(503, "$maxConcurrentRuns runs already in progress; retry later", headers = RETRY)
        }
        if (!budget.tryAcquire(weight)) {
            slots.release()
            throw HttpError(503, "runs in progress hold too much of the run budget ($runBudget) for one of weight $weight; retry later",
                headers = RETRY)
        }
        inProgress.incrementAndGet()
        try {
            val case = workload.caseOf(request.params)
            val watch = RunThreadWatch.start()
            val result = try {
                workload.run(request)
            } catch (e: InterruptedException) {
                metrics.countRun(workload.name, request.approach, Outcome.INTERRUPTED)
                Thread.currentThread().interrupt()
                throw HttpError(503, "run interrupted: the service is shutting down")
            } catch (e: Exception) {
                metrics.countRun(workload.name, request.approach, Outcome.ERROR)
                throw e
            } catch (e: OutOfMemoryError) {
                // Only if a memory model fell short (every run reserves its share first): the run's garbage is
                // collectable once it unwinds, so the service goes on serving, and the client may retry.
                metrics.countRun(workload.name, request.approach, Outcome.ERROR)
                System.err.println("[${Config.SERVICE_NAME}] run ${workload.name} ${request.approach}: out of memory: $e")
                throw HttpError(503, "out of memory during the run; retry later", headers = RETRY)
            } finally {
                metrics.observeRunThread(watch.stop())
            }
            // A wrong answer is a failed run: counted, but its time is not a measurement (STYLE: verify, then measure).
            if (result.validated) {
                metrics.countRun(workload.name, request.approach, Outcome.OK)
                metrics.runDuration.labelValues(workload.name, request.approach, case).observe(result.ms / 1000.0)
            } else {
                metrics.countRun(workload.name, request.approach, Outcome.INVALID)
            }
            val answer = mapOf(
                "service" to JsonPrimitive(Config.SERVICE_NAME),
                "workload" to JsonPrimitive(workload.name),
                "approach" to JsonPrimitive(request.approach),
                "params" to request.params.toJson(),
                "case" to JsonPrimitive(case),
            ) + result.toJson() + ("thread" to watch.stop().toJson())
            return Answer.json(200, JsonObject(answer))
        } finally {
            inProgress.decrementAndGet()
            budget.release(weight)
            slots.release()
        }
    }

    private companion object {
        val RETRY = mapOf("Retry-After" to "1")
    }
}
