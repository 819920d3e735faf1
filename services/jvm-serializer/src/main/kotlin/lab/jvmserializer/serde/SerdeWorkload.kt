package lab.jvmserializer.serde

import io.prometheus.metrics.model.registry.PrometheusRegistry
import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import lab.jvmserializer.Config
import lab.jvmserializer.documents.DocumentApproach
import lab.jvmserializer.documents.DocumentRuns
import lab.jvmserializer.documents.DocumentStore
import lab.jvmserializer.documents.JacksonTreeApproach
import lab.jvmserializer.documents.KotlinxTreeApproach
import lab.jvmserializer.documents.MultithreadedTreeApproach
import lab.jvmserializer.memory.MemoryBudget
import lab.jvmserializer.payloads.DocumentNames
import lab.jvmserializer.workloads.DocumentParam
import lab.jvmserializer.workloads.HttpError
import lab.jvmserializer.workloads.IntParam
import lab.jvmserializer.workloads.RunParams
import lab.jvmserializer.workloads.RunRequest
import lab.jvmserializer.workloads.RunResult
import lab.jvmserializer.workloads.Workload
import lab.jvmserializer.workloads.nanosToMs
import java.util.concurrent.CopyOnWriteArrayList

/**
 * The multithreaded-json experiment: serialize then deserialize the spec's `objects` document, each phase timed apart,
 * `repeat` times, every repetition checked. Adding an approach is one entry in [approachesByName]. With a [store] of
 * users' documents, `document=<sha256>` runs a stored document as a generic tree instead ([documentRuns]), through the
 * approaches that can take one ([documentApproaches]).
 */
class SerdeWorkload(private val inputs: ObjectsInputs, config: Config = Config(), store: DocumentStore? = null) : Workload {
    /** The one pool every json-multithreaded run of this service shares. */
    val pool = SerdePool(config.serdeThreads)

    /** The heap runs and upload checks may hold at once (RUN_MEMORY_BYTES): every run reserves its share first. */
    val memory = MemoryBudget(config.runMemory).also(inputs::holdIn)
    private val parallelMinObjects = config.serdeParallelMinObjects
    private val runBudget = config.runBudget

    val approachesByName: Map<String, SerdeApproach<*>> = linkedMapOf(
        "json" to JsonApproach(),
        "json-multithreaded" to MultithreadedJsonApproach(pool, parallelMinObjects),
        "cbor" to CborApproach(),
        "jackson" to JacksonApproach.jackson(),
        "jackson-cbor" to JacksonApproach.jacksonCbor(),
    )

    /**
     * The approaches on a user's document's tree. kotlinx `Cbor` is not among them: its 1.11 has no tree of its own and
     * JsonElement's serializer works with the Json format only (README, "Users' documents").
     */
    val documentApproaches: Map<String, DocumentApproach<*, *>> = linkedMapOf(
        "json" to KotlinxTreeApproach(),
        "json-multithreaded" to MultithreadedTreeApproach(pool, parallelMinObjects),
        "jackson" to JacksonTreeApproach.json(config.documents.maxDepth, config.documents.maxDocumentBytes),
        "jackson-cbor" to JacksonTreeApproach.cbor(config.documents.maxDepth, config.documents.maxDocumentBytes),
    )

    val documentRuns: DocumentRuns? = store?.let { DocumentRuns(it, documentApproaches, memory) }

    private val metrics = CopyOnWriteArrayList<SerdeMetrics>()

    override val name = "serde"
    override val approaches = approachesByName.keys.toList()
    override val params = listOf(
        DocumentParam("document", DocumentNames.OBJECTS, listOf(DocumentNames.OBJECTS)),
        // The cap bounds one run's heap: see the README's memory math before raising it.
        IntParam("size", default = 1000, min = 1, max = 100_000),
        IntParam("seed", default = 1, min = 0, max = Int.MAX_VALUE),
        // Repetitions of the round trip in one run, for the `stats`; repeat × size is bounded too (checkParams).
        IntParam("repeat", default = 1, min = 1, max = MAX_REPEAT),
    )

    private fun isUsers(params: RunParams) = params.string("document") != DocumentNames.OBJECTS

    // A user's document is one metrics case, whatever its id: the label set stays bounded.
    override fun caseOf(params: RunParams): String = if (isUsers(params)) CASE_DOCUMENT else params.string("document")

    /** Objects, or a user's document's text in objects' worth of JSON. */
    override fun weightOf(params: RunParams): Int =
        if (isUsers(params)) documentRuns?.weightOf(params.string("document")) ?: 1 else params.int("size")

    /** repeat × size within RUN_BUDGET objects: a run's time stays within that of one run at the budget's size. */
    override fun checkParams(params: RunParams) {
        val size = weightOf(params)
        val repeat = params.int("repeat")
        if (repeat == 1 || repeat.toLong() * size <= runBudget) return
        val max = maxOf(1, runBudget / size)
        throw HttpError.badRequest(
            "repeat × size must be at most $runBudget (RUN_BUDGET): at size $size, repeat may be at most $max",
            "repeat",
            buildJsonObject { put("min", 1); put("max", max); put("repeatTimesSizeMax", runBudget) },
        )
    }

    override fun registerMetrics(registry: PrometheusRegistry) {
        metrics += SerdeMetrics(registry, pool)
    }

    override fun describeMore(): Map<String, JsonElement> = mapOf(
        "pool" to buildJsonObject {
            put("threads", pool.threads)
            put("parallelMinObjects", parallelMinObjects)
        },
        // The approaches a user's document runs through (the try suite's list when present).
        "documentApproaches" to JsonArray(documentApproaches.keys.map(::JsonPrimitive)),
    )

    override fun run(request: RunRequest): RunResult {
        if (isUsers(request.params)) {
            val runs = documentRuns ?: throw HttpError(404, "this service keeps no documents", mapOf("parameter" to JsonPrimitive("document")))
            return runs.run(request.approach, request.params.string("document"), request.params.int("repeat"))
        }
        val approach = approachesByName.getValue(request.approach)
        val size = request.params.int("size")
        memory.reserve(size * OBJECTS_RUN_BYTES_PER_OBJECT, "a serde run of $size objects").use {
            return runObjects(request, approach, size)
        }
    }

    private fun runObjects(request: RunRequest, approach: SerdeApproach<*>, size: Int): RunResult {
        val repeat = request.params.int("repeat")
        val input = inputs.get(request.params.int("seed"), size)
        // Made (or taken from the cache) before any timing.
        val reference = input.reference(approach.format)
        val trips = ArrayList<RoundTrip>(repeat)
        repeat(repeat) {
            // A repetition cannot be stopped midway (kotlinx and Jackson cannot), but a run stops between them.
            if (Thread.interrupted()) throw InterruptedException("interrupted between repetitions")
            trips += approach.roundTrip(input.objects, reference.sha256)
        }
        val validated = trips.all { it.validated }
        // Only validated runs are measurements: each repetition's phases go to the histogram then.
        if (validated) metrics.forEach { m -> trips.forEach { m.observe(request.approach, size, it) } }
        val serialize = PhaseStats.of(trips.map { it.serializeNanos })
        val deserialize = PhaseStats.of(trips.map { it.deserializeNanos })
        val shown = trips.firstOrNull { !it.validated } ?: trips.first()
        return RunResult(
            ms = nanosToMs(trips.map { it.serializeNanos + it.deserializeNanos }.average()),
            bytes = shown.bytes,
            hash = shown.sha256,
            validated = validated,
            reference = reference.name,
            extra = mapOf(
                "serializeMs" to JsonPrimitive(serialize.meanMs),
                "deserializeMs" to JsonPrimitive(deserialize.meanMs),
                "stats" to JsonObject(mapOf("serialize" to serialize.toJson(), "deserialize" to deserialize.toJson())),
            ),
        )
    }

    companion object {
        /**
         * What a run of the spec's objects holds, per object: its input (ObjectsInputs.OBJECT_BYTES; the cache's share
         * may be dropped while the run still uses it) and, at its peak, kotlinx's doubling buffer while serializing or
         * the text and the decoded copy while deserializing (README, "Memory": ~1.5 GB at 100000 objects).
         */
        const val OBJECTS_RUN_BYTES_PER_OBJECT = ObjectsInputs.OBJECT_BYTES + 9_000L

        const val MAX_REPEAT = 100
        const val CASE_DOCUMENT = "document"
    }
}
