package lab.jvmserializer.documents

/**
 * The topics of CONTRACT.md's "Findings" (what in a document runtimes may treat differently), in the contract's
 * order, which is the order of a `PUT /documents` answer's findings; and the one rule of which topic a number's text
 * is (node-kit/document-findings.js' numberTopic, the reference).
 */
object FindingTopics {
    const val LARGE_INTEGER = "large-integer"
    const val NEGATIVE_ZERO = "negative-zero"
    const val DUPLICATE_KEY = "duplicate-key"
    const val LONE_SURROGATE = "lone-surrogate"
    const val NUMBER_FORMAT = "number-format"

    val ORDER = listOf(LARGE_INTEGER, NEGATIVE_ZERO, DUPLICATE_KEY, LONE_SURROGATE, NUMBER_FORMAT)

    /** JavaScript's Number.MAX_SAFE_INTEGER, 2^53 - 1: past it a JSON.parse in Node rounds an integer. */
    private const val MAX_SAFE_DIGITS = "9007199254740991"

    /**
     * The topic of a JSON number's text, or null; the first that applies: an integer's text (no fraction, no exponent)
     * beyond ±(2^53 − 1), then a text that reads as 0 with a minus sign, then a text that is not
     * `JSON.stringify(Number(text))` ([JsNumberText]).
     */
    fun ofNumber(text: String): String? {
        val integer = text.none { it == '.' || it == 'e' || it == 'E' }
        if (integer && beyondSafe(text)) return LARGE_INTEGER
        if (text[0] == '-' && JsNumberText.isZero(text)) return NEGATIVE_ZERO
        return if (JsNumberText.isStringifyForm(text)) null else NUMBER_FORMAT
    }

    /** Compared as digit strings (JSON has no leading zeros), as the reference does: no parse, however long. */
    private fun beyondSafe(text: String): Boolean {
        val digits = if (text[0] == '-') text.length - 1 else text.length
        return digits > MAX_SAFE_DIGITS.length ||
            (digits == MAX_SAFE_DIGITS.length && text.substring(text.length - digits) > MAX_SAFE_DIGITS)
    }
}
