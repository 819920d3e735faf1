package lab.jvmserializer.bench

/**
 * The multithreaded-json experiment's published means (docs/experiments/multithreaded-json.md: MacBook Air M2,
 * 8 cores, OpenJDK 21.0.5, a fixed pool of 8 threads, 100 runs each), in milliseconds by N. The original has no Cbor
 * figure at N = 100000, nor any for Jackson.
 */
object MultithreadedJsonFigures {
    val SIZES = listOf(10, 100, 1000, 10000, 100000)

    class Phases(val serializeMs: List<Double?>, val deserializeMs: List<Double?>)

    val BY_APPROACH: Map<String, Phases> = mapOf(
        "json-multithreaded" to Phases(
            listOf(0.27321, 0.507094, 1.765961, 14.329508, 136.681437),
            listOf(0.129383, 0.225947, 1.407214, 17.520620, 320.806483),
        ),
        "json" to Phases(
            listOf(0.199566, 0.573415, 1.933799, 18.236552, 170.366200),
            listOf(0.165261, 0.44903, 2.788351, 26.238247, 377.084495),
        ),
        "cbor" to Phases(
            listOf(0.446767, 1.419497, 8.860455, 99.256659, null),
            listOf(0.310186, 1.017907, 7.534990, 73.505426, null),
        ),
    )

    fun ms(approach: String, phase: String, size: Int): Double? {
        val phases = BY_APPROACH[approach] ?: return null
        val index = SIZES.indexOf(size).takeIf { it >= 0 } ?: return null
        return (if (phase == "serialize") phases.serializeMs else phases.deserializeMs)[index]
    }
}
