package lab.jvmserializer.bench

import lab.jvmserializer.Config
import lab.jvmserializer.payloads.SpecObject
import lab.jvmserializer.payloads.Vectors
import lab.jvmserializer.serde.ObjectsInputs
import lab.jvmserializer.serde.SerdeApproach
import lab.jvmserializer.serde.SerdeWorkload
import org.openjdk.jmh.annotations.Benchmark
import org.openjdk.jmh.annotations.BenchmarkMode
import org.openjdk.jmh.annotations.Level
import org.openjdk.jmh.annotations.Mode
import org.openjdk.jmh.annotations.OutputTimeUnit
import org.openjdk.jmh.annotations.Param
import org.openjdk.jmh.annotations.Scope
import org.openjdk.jmh.annotations.Setup
import org.openjdk.jmh.annotations.State
import org.openjdk.jmh.annotations.TearDown
import java.util.concurrent.TimeUnit

/**
 * The multithreaded-json experiment under JMH: each approach of the service's `serde` workload (the very objects the
 * service runs, pool and threshold included), serialize and deserialize timed apart, at the original's five sizes.
 * The average time per operation is the original's "mean". Verify before measuring: the trial's setup runs one full
 * round trip and checks it like a /run does (bytes against the reference, decoded list against the input); a wrong
 * answer fails the trial, so it is never timed.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
open class SerdeBenchmark {
    @Param("json", "json-multithreaded", "cbor", "jackson", "jackson-cbor")
    @JvmField
    var approach: String = ""

    @Param("10", "100", "1000", "10000", "100000")
    @JvmField
    var size: Int = 0

    private lateinit var workload: SerdeWorkload
    private lateinit var subject: SerdeApproach<Any?>
    private lateinit var objects: List<SpecObject>
    private var wire: Any? = null

    @Setup(Level.Trial)
    fun setUp() {
        // SERDE_THREADS and SERDE_PARALLEL_MIN_OBJECTS apply here as in the service.
        workload = SerdeWorkload(ObjectsInputs(Vectors.fromClasspath(), size), Config.fromEnvironment())
        @Suppress("UNCHECKED_CAST")
        subject = workload.approachesByName.getValue(approach) as SerdeApproach<Any?>
        val input = ObjectsInputs(Vectors.fromClasspath(), size).get(SEED, size)
        val reference = input.reference(subject.format)
        val trip = subject.roundTrip(input.objects, reference.sha256)
        check(trip.validated) { "FAILED: $approach at size $size does not match its reference (${reference.name}): not measured" }
        objects = input.objects
        wire = subject.serialize(objects)
    }

    @TearDown(Level.Trial)
    fun tearDown() = workload.pool.close()

    @Benchmark
    fun serialize(): Any? = subject.serialize(objects)

    @Benchmark
    fun deserialize(): List<SpecObject> = subject.deserialize(wire)

    companion object {
        const val SEED = 1
    }
}
