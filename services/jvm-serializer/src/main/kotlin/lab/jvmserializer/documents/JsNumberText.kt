package lab.jvmserializer.documents

import java.math.BigDecimal
import java.math.MathContext
import java.math.RoundingMode

/**
 * JavaScript's `JSON.stringify(Number(text))` for a JSON number's text, exactly, on any JDK: the `number-format`
 * finding is a number whose text is not this (node-kit/document-findings.js is the reference). ECMAScript's
 * Number::toString takes the fewest significant digits that read back as the same double, the closest of those to
 * the double when several have that many (the even one on a tie), and writes them plainly from 1e-6 up to below 1e21,
 * else as `1e+21`, `1.5e-7`. Java's Double.toString is not that before JDK 19 (it may give a digit more, `2.0E-3`
 * style), and not in that layout on any JDK, so it is not used.
 */
object JsNumberText {
    /** `JSON.stringify(Number(text))` for a text that is a JSON number: Infinity (`1e400`) gives `null`, -0 gives `0`. */
    fun stringify(text: String): String {
        val parsed = parse(text)
        if (parsed.digits.isEmpty()) return "0"
        // Past the double range at a glance: 10^(n-1) <= value < 10^n.
        if (parsed.point > 309) return "null"
        if (parsed.point < -323) return "0"
        // Up to 15 significant digits in the normal range, a decimal is the only one of that length or shorter that
        // reads back as its double (DBL_DIG), so those are the shortest digits already.
        if (parsed.digits.length <= 15 && parsed.point in -306..308) return layout(parsed.negative, parsed.digits, parsed.point)
        val value = "0.${parsed.digits}E${parsed.point}".toDouble()
        if (value.isInfinite()) return "null"
        if (value == 0.0) return "0"
        val (digits, point) = shortest(value)
        return layout(parsed.negative, digits, point)
    }

    /**
     * Whether [text] is `JSON.stringify(Number(text))`. Most numbers in documents are written plainly with few digits
     * (`12`, `0.5`, `-3.25`): those are told at a glance, without a copy, since a document may hold millions of them;
     * the rest are written out by [stringify] and compared.
     */
    fun isStringifyForm(text: String): Boolean {
        val n = text.length
        var i = if (text[0] == '-') 1 else 0
        val intStart = i
        while (i < n && text[i] in '0'..'9') i++
        val intDigits = i - intStart
        if (i == n) return (intDigits <= 15 && text != "-0") || stringify(text) == text
        if (text[i] != '.' || text[n - 1] == '0') return stringify(text) == text
        val fractionStart = ++i
        while (i < n && text[i] in '0'..'9') i++
        if (i != n) return stringify(text) == text
        // Plain from 1e-6 up (`0.000001`: five zeros after the point at most), 15 significant digits at most.
        val plainAndShort = if (intDigits == 1 && text[intStart] == '0') {
            var z = fractionStart
            while (text[z] == '0') z++
            z - fractionStart <= 5 && n - z <= 15
        } else intDigits + (n - fractionStart) <= 15
        return plainAndShort || stringify(text) == text
    }

    /** Whether the number the text reads as is 0 (`-0`, `0.0e5`, or `1e-400`, which underflows). */
    fun isZero(text: String): Boolean {
        if (text.none { it == 'e' || it == 'E' }) return text.all { it == '-' || it == '0' || it == '.' }
        val parsed = parse(text)
        if (parsed.digits.isEmpty() || parsed.point < -323) return true
        if (parsed.point > -306) return false
        return "0.${parsed.digits}E${parsed.point}".toDouble() == 0.0
    }

    /** A number's text as significant digits (no leading or trailing zeros; empty for 0) and point: 0.digits × 10^point. */
    private class Parsed(val negative: Boolean, val digits: String, val point: Int)

    private fun parse(text: String): Parsed {
        val negative = text.startsWith('-')
        val mantissaEnd = text.indexOfFirst { it == 'e' || it == 'E' }.let { if (it < 0) text.length else it }
        val mantissa = text.substring(if (negative) 1 else 0, mantissaEnd)
        val dot = mantissa.indexOf('.')
        val whole = if (dot < 0) mantissa else mantissa.substring(0, dot)
        val all = if (dot < 0) mantissa else whole + mantissa.substring(dot + 1)
        val first = all.indexOfFirst { it != '0' }
        if (first < 0) return Parsed(negative, "", 0)
        val last = all.indexOfLast { it != '0' }
        // The exponent saturates: a text of 1e99999999999 is as far past the range as one of 1e400.
        var exponent = 0L
        if (mantissaEnd < text.length) {
            val sign = if (text[mantissaEnd + 1] == '-') -1 else 1
            for (c in text.substring(mantissaEnd + 1).trimStart('+', '-')) exponent = minOf(exponent * 10 + (c - '0'), 1_000_000_000L)
            exponent *= sign
        }
        return Parsed(negative, all.substring(first, last + 1), (whole.length - first + exponent).toInt())
    }

    /** ECMAScript Number::toString's layout of digits d1..dk with the value 0.d1..dk × 10^point. */
    private fun layout(negative: Boolean, digits: String, point: Int): String {
        val k = digits.length
        val body = when {
            point in k..21 -> digits + "0".repeat(point - k)
            point in 1..21 -> digits.substring(0, point) + "." + digits.substring(point)
            point in -5..0 -> "0." + "0".repeat(-point) + digits
            else -> {
                val exponent = point - 1
                val mantissa = if (k == 1) digits else digits[0] + "." + digits.substring(1)
                mantissa + "e" + (if (exponent < 0) "-" else "+") + Math.abs(exponent)
            }
        }
        return if (negative) "-$body" else body
    }

    /**
     * The shortest digits that read back as [value] (> 0, finite), the closest of them to it, the even one on a tie;
     * as (digits, point). Exact, in decimal: a decimal reads back as [value] when it lies between the midpoints to its
     * neighbouring doubles (on a midpoint only when [value]'s significand is even, as reading rounds ties to even).
     * The interval is lopsided at a power of two (the double below is half as far), so the nearest decimal of a length
     * may fall outside while the other one of that length lies inside: both neighbours of [value] are tried. If some
     * decimal of p digits lies inside, so does one of p + 1 (the same with a 0 appended): the length is found by
     * bisection.
     */
    private fun shortest(value: Double): Pair<String, Int> {
        val exact = BigDecimal(value)
        val even = value.toRawBits() and 1L == 0L
        val below = BigDecimal(Math.nextDown(value))
        val above = if (value == Double.MAX_VALUE) exact.add(BigDecimal(Math.ulp(value))) else BigDecimal(Math.nextUp(value))
        val low = exact.add(below).multiply(HALF)
        val high = exact.add(above).multiply(HALF)
        fun readsBack(d: BigDecimal): Boolean {
            val fromLow = d.compareTo(low)
            val fromHigh = d.compareTo(high)
            return (fromLow > 0 && fromHigh < 0) || (even && (fromLow == 0 || fromHigh == 0))
        }
        /** The closest decimal of [precision] digits that reads back, or null. */
        fun closest(precision: Int): BigDecimal? {
            val down = exact.round(MathContext(precision, RoundingMode.FLOOR))
            val up = exact.round(MathContext(precision, RoundingMode.CEILING))
            val downReads = readsBack(down)
            val upReads = readsBack(up)
            if (!downReads || !upReads) return if (downReads) down else if (upReads) up else null
            val toDown = exact.subtract(down).compareTo(up.subtract(exact))
            return if (toDown < 0 || (toDown == 0 && !down.unscaledValue().testBit(0))) down else up
        }
        var tooShort = 0 // no decimal of this many digits reads back
        var enough = 17 // 17 digits always tell doubles apart
        var found = closest(enough) ?: throw IllegalStateException("no 17-digit decimal reads back as $value")
        while (enough - tooShort > 1) {
            val middle = (tooShort + enough) / 2
            val candidate = closest(middle)
            if (candidate == null) tooShort = middle else {
                enough = middle
                found = candidate
            }
        }
        val stripped = found.stripTrailingZeros()
        val digits = stripped.unscaledValue().toString()
        return digits to digits.length - stripped.scale()
    }

    private val HALF = BigDecimal("0.5")
}
