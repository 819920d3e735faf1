package lab.jvmserializer.bench

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import java.io.File
import kotlin.system.exitProcess

/**
 * The multithreaded-json experiment's tables (docs/experiments/multithreaded-json.md) from a JMH JSON result (and
 * its .meta.json): per approach, N × serialize / deserialize mean with the original's figures beside;
 * `json-multithreaded` against `json` as the original's delta tables, plus the speed-up; every
 * approach against `json`; the targets. A separate step that only reads files: `make bench-report RESULT=...` reprints
 * an old run.
 */
object BenchReport {
    private class Score(val us: Double, val errorUs: Double)

    private val APPROACHES = listOf("json", "json-multithreaded", "cbor", "jackson", "jackson-cbor")
    private val PHASES = listOf("serialize", "deserialize")

    fun print(result: File, meta: File?) {
        val scores = read(result)
        val sizes = scores.keys.map { it.third }.distinct().sorted()
        meta?.takeIf { it.exists() }?.let { file ->
            val m = Json.parseToJsonElement(file.readText()).jsonObject
            println("\n## jvm-serializer JMH (${m.str("mode")}), ${m.str("startedAt")}")
            println("${m.str("availableProcessors")} CPUs (${m.str("cpuModel")}), ${m.str("java")}, `${m.str("jvmArgs")}`; " +
                "${m.str("forks")} fork(s), warm-up ${m.str("warmup")}, measurement ${m.str("measurement")}; serde pool " +
                "${m.str("serdeThreads")} threads, parallel from ${m.str("serdeParallelMinObjects")} objects. Mean time per operation " +
                "± JMH's 99.9 % error; original: MacBook Air M2 (8 cores), Java 21, 8 threads.")
        }
        for (approach in APPROACHES) {
            if (sizes.none { scores.containsKey(Triple(approach, "serialize", it)) }) continue
            println("\n### $approach\n")
            println("| N | serialize | deserialize | original serialize | original deserialize |")
            println("|---:|---:|---:|---:|---:|")
            for (n in sizes) {
                val cells = PHASES.map { scores[Triple(approach, it, n)]?.let(::withError) ?: "—" }
                val original = PHASES.map { MultithreadedJsonFigures.ms(approach, it, n)?.let(::time) ?: "—" }
                println("| $n | ${cells[0]} | ${cells[1]} | ${original[0]} | ${original[1]} |")
            }
        }
        for (phase in PHASES) {
            println("\n### json-multithreaded vs json: $phase\n")
            println("| N | multithreaded | json | delta | speed-up (json / mt) | original delta |")
            println("|---:|---:|---:|---:|---:|---:|")
            for (n in sizes) {
                val mt = scores[Triple("json-multithreaded", phase, n)] ?: continue
                val single = scores[Triple("json", phase, n)] ?: continue
                val originalMt = MultithreadedJsonFigures.ms("json-multithreaded", phase, n)
                val originalSingle = MultithreadedJsonFigures.ms("json", phase, n)
                val originalDelta = if (originalMt != null && originalSingle != null) percent(originalMt, originalSingle) else "—"
                val speedup = "%.2fx".format(single.us / mt.us)
                println("| $n | ${time(mt.us / 1000)} | ${time(single.us / 1000)} | ${signed(mt.us - single.us)} (${percent(mt.us, single.us)}) | " +
                    "$speedup | $originalDelta |")
            }
        }
        println("\n### every approach against json (time ÷ json's: below 1 is faster)\n")
        println("| N | phase | " + APPROACHES.joinToString(" | ") + " |")
        println("|---:|---|" + APPROACHES.joinToString("") { "---:|" })
        for (n in sizes) for (phase in PHASES) {
            val base = scores[Triple("json", phase, n)] ?: continue
            println("| $n | $phase | " + APPROACHES.joinToString(" | ") { a ->
                scores[Triple(a, phase, n)]?.let { "%.2f".format(it.us / base.us) } ?: "—"
            } + " |")
        }
        println("\n### targets\n")
        for (n in sizes) for (phase in PHASES) {
            val mt = scores[Triple("json-multithreaded", phase, n)] ?: continue
            val single = scores[Triple("json", phase, n)] ?: continue
            val ratio = single.us / mt.us
            when {
                n >= 10000 -> println("- N = $n $phase: json-multithreaded " + "%.2fx".format(ratio) + " faster than json (target ≥ 1.5x): " +
                    if (ratio >= 1.5) "MET" else "MISSED")
                n == 10 -> println("- N = $n $phase: json-multithreaded ${percent(mt.us, single.us)} against json's time (target within 10 %): " +
                    if (mt.us <= single.us * 1.10) "MET" else "MISSED")
            }
        }
    }

    /** (approach, phase, size) -> score, from JMH's JSON: one entry per benchmark method and parameter set. */
    private fun read(file: File): Map<Triple<String, String, Int>, Score> =
        Json.parseToJsonElement(file.readText()).jsonArray.associate { entry ->
            val e = entry.jsonObject
            val params = e.getValue("params").jsonObject
            val metric = e.getValue("primaryMetric").jsonObject
            require(metric.str("scoreUnit") == "us/op") { "expected us/op, got ${metric.str("scoreUnit")}" }
            Triple(params.str("approach"), e.str("benchmark").substringAfterLast('.'), params.str("size").toInt()) to
                Score(metric.str("score").toDouble(), metric.str("scoreError").toDoubleOrNull()?.takeIf { !it.isNaN() } ?: 0.0)
        }

    private fun JsonObject.str(key: String) = getValue(key).jsonPrimitive.content

    private fun withError(s: Score) = "${time(s.us / 1000)} ± ${time(s.errorUs / 1000)}"

    /** The original's style: microseconds below a millisecond, milliseconds above. */
    private fun time(ms: Double) = if (ms < 1) "%.1f µs".format(ms * 1000) else "%.3f ms".format(ms)

    private fun signed(us: Double) = (if (us >= 0) "+" else "−") + time(Math.abs(us) / 1000)

    private fun percent(value: Double, base: Double) = "%+.1f %%".format((value - base) / base * 100).replace("-", "−")

    @JvmStatic
    fun main(args: Array<String>) {
        val result = args.getOrNull(0)?.let(::File)
        if (result == null || !result.exists()) {
            System.err.println("usage: BenchReport RESULT.json (the .meta.json beside it is read too)")
            exitProcess(2)
        }
        print(result, File(result.path.removeSuffix(".json") + ".meta.json"))
    }
}
