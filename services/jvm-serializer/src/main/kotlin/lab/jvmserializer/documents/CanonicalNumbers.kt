package lab.jvmserializer.documents

/**
 * A number in the canonical form ([JsonScan]): the value, not its spelling, as the Node services' reference keeps it
 * (JSON.stringify of the parsed document), so that `1.0E-7` written by a Java library for `1e-7`, or `100.0` for
 * `1e2`, is no departure; a changed value still is. A number with a fraction or an exponent is written as
 * JSON.stringify writes its double ([JsNumberText]), but:
 * - an integer written without fraction or exponent keeps every digit: past 2^53 a double would round it, and whether
 *   an approach keeps those digits is what the large-integer finding is about;
 * - a zero keeps its sign (`-0`): JSON.stringify drops it, and whether an approach does is the negative-zero finding;
 * - a number past the double range keeps its text: it has no double (JSON.parse makes it Infinity).
 */
internal object CanonicalNumbers {
    fun of(literal: String): String {
        if (literal.none { it == '.' || it == 'e' || it == 'E' }) return literal
        if (JsNumberText.isZero(literal)) return if (literal[0] == '-') "-0" else "0"
        if (JsNumberText.isStringifyForm(literal)) return literal
        val written = JsNumberText.stringify(literal)
        return if (written == "null") literal else written
    }
}
