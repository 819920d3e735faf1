package lab.jvmserializer.payloads

/**
 * The spec's PRNG (payloads/SPEC.md, "mulberry32"). Kotlin's Int arithmetic already wraps modulo 2^32, `ushr` is the
 * logical shift and Int multiplication keeps the low 32 bits like Math.imul, so the code reads like the spec.
 */
class Mulberry32(seed: Int) {
    private var state: Int = seed

    /** The next output as the unsigned 32-bit value the spec and vectors.json use. */
    fun next(): Long = nextBits().toLong() and 0xFFFF_FFFFL

    /** The next output's raw 32 bits. */
    fun nextBits(): Int {
        state += 0x6D2B79F5
        var t = state
        t = (t xor (t ushr 15)) * (t or 1)
        t = t xor (t + (t xor (t ushr 7)) * (t or 61))
        return t xor (t ushr 14)
    }
}

const val ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

/** The spec's two draws over one generator; one instance serves a whole document. */
class Draws(seed: Int) {
    private val prng = Mulberry32(seed)

    /** `next() % n` for 1 <= n <= 2^31, so the result always fits an Int. */
    fun int(n: Long): Int {
        require(n in 1L..(1L shl 31)) { "int(n) needs 1 <= n <= 2^31, got $n" }
        return (prng.next() % n).toInt()
    }

    /** n characters, each the alphabet entry picked by the top 6 bits of one output. */
    fun str(n: Int): String {
        val chars = CharArray(n)
        for (k in 0 until n) chars[k] = ALPHABET[prng.nextBits() ushr 26]
        return String(chars)
    }
}
