package lab.jvmserializer.bench

import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import lab.jvmserializer.BuildInfo
import lab.jvmserializer.Config
import org.openjdk.jmh.results.format.ResultFormatType
import org.openjdk.jmh.runner.Runner
import org.openjdk.jmh.runner.options.OptionsBuilder
import org.openjdk.jmh.runner.options.TimeValue
import java.io.File
import java.time.Instant
import java.time.ZoneOffset
import java.time.format.DateTimeFormatter
import kotlin.system.exitProcess

/** How long `make bench` (full) and `make bench-short` measure. */
enum class BenchMode(val forks: Int, val warmupIterations: Int, val measurementIterations: Int, val iterationSeconds: Int, val sizes: List<Int>) {
    // Two forks so one JVM's JIT luck does not decide; 2 s iterations hold at least one op at N = 100000 (~1 s).
    FULL(forks = 2, warmupIterations = 5, measurementIterations = 5, iterationSeconds = 2, sizes = MultithreadedJsonFigures.SIZES),
    // A few minutes: one fork, the sizes the targets name (10 and 10000) and one between.
    SHORT(forks = 1, warmupIterations = 3, measurementIterations = 3, iterationSeconds = 1, sizes = listOf(10, 1000, 10000)),
}

/**
 * `java -jar target/jmh/jvm-serializer-jmh.jar full|short RESULTS_DIR`: runs [SerdeBenchmark] with the mode's
 * settings, keeps JMH's raw JSON as RESULTS_DIR/jvm-serde-<UTC time>.json with the machine beside it (.meta.json:
 * CPUs, JVM, flags, library versions, times), then prints the multithreaded-json experiment's tables from those two
 * files ([BenchReport]).
 */
fun main(args: Array<String>) {
    val mode = args.getOrNull(0)?.let { name -> BenchMode.values().firstOrNull { it.name.equals(name, ignoreCase = true) } }
    val dir = args.getOrNull(1)?.let(::File)
    if (mode == null || dir == null) {
        System.err.println("usage: jvm-serializer-jmh.jar full|short RESULTS_DIR")
        exitProcess(2)
    }
    dir.mkdirs()
    val started = Instant.now()
    val stamp = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC).format(started)
    val result = File(dir, "jvm-serde-$stamp.json")
    val meta = File(dir, "jvm-serde-$stamp.meta.json")
    // The service's heap settings (Makefile's JAVA_OPTS): a fixed, pre-touched heap so page faults are not timed.
    val jvmArgs = (System.getenv("JAVA_OPTS")?.takeIf { it.isNotBlank() } ?: DEFAULT_JVM_ARGS).trim().split(Regex("\\s+"))
    val config = Config.fromEnvironment()
    val machine = machine(mode, jvmArgs, config, started)
    println("# jvm-serializer JMH, mode ${mode.name.lowercase()}: $machine")
    println("# raw results: $result")
    val options = OptionsBuilder()
        .include(SerdeBenchmark::class.java.name)
        .forks(mode.forks)
        .warmupIterations(mode.warmupIterations)
        .warmupTime(TimeValue.seconds(mode.iterationSeconds.toLong()))
        .measurementIterations(mode.measurementIterations)
        .measurementTime(TimeValue.seconds(mode.iterationSeconds.toLong()))
        .param("size", *mode.sizes.map(Int::toString).toTypedArray())
        .jvmArgs(*jvmArgs.toTypedArray())
        .shouldFailOnError(true)
        .resultFormat(ResultFormatType.JSON)
        .result(result.path)
        .build()
    try {
        Runner(options).run()
    } catch (e: Exception) {
        System.err.println("FAILED: ${e.message}")
        exitProcess(1)
    }
    meta.writeText(JsonObject(machine + ("finishedAt" to JsonPrimitive(Instant.now().toString()))).toString())
    BenchReport.print(result, meta)
}

private const val DEFAULT_JVM_ARGS = "-Xms3g -Xmx3g -XX:+AlwaysPreTouch -XX:+UseG1GC"

private fun machine(mode: BenchMode, jvmArgs: List<String>, config: Config, started: Instant): JsonObject = buildJsonObject {
    put("mode", mode.name.lowercase())
    put("startedAt", started.toString())
    put("availableProcessors", Runtime.getRuntime().availableProcessors())
    put("cpuModel", cpuModel())
    put("java", "${System.getProperty("java.vm.name")} ${System.getProperty("java.runtime.version")}")
    put("jvmArgs", jvmArgs.joinToString(" "))
    put("forks", mode.forks)
    put("warmup", "${mode.warmupIterations} × ${mode.iterationSeconds} s")
    put("measurement", "${mode.measurementIterations} × ${mode.iterationSeconds} s")
    put("serdeThreads", config.serdeThreads)
    put("serdeParallelMinObjects", config.serdeParallelMinObjects)
    put("libraries", JsonObject(BuildInfo.libraries().mapValues { JsonPrimitive(it.value) }))
}

private fun cpuModel(): String = runCatching {
    File("/proc/cpuinfo").useLines { lines -> lines.firstOrNull { it.startsWith("model name") }?.substringAfter(':')?.trim() }
}.getOrNull() ?: System.getProperty("os.arch")
