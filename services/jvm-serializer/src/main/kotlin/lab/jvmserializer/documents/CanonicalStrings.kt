package lab.jvmserializer.documents

/**
 * A string in the canonical form ([JsonScan]) is written as JSON.stringify writes it: `\"`, `\\`, `\b \f \n \r \t`,
 * other controls and unpaired surrogates as lowercase `\u00xx`, everything else as itself, so that how a document
 * spelled its characters (`\u00e9` or `é`, `\/` or `/`) never counts, only which characters they are.
 */
internal object CanonicalStrings {
    /** Appends [s], quoted, to [out]; true if it holds an unpaired surrogate (a lone-surrogate instance). */
    fun append(out: StringBuilder, s: String): Boolean {
        var lone = false
        out.append('"')
        var k = 0
        while (k < s.length) {
            val c = s[k]
            when {
                c == '"' -> out.append("\\\"")
                c == '\\' -> out.append("\\\\")
                c == '\b' -> out.append("\\b")
                c == '\u000c' -> out.append("\\f")
                c == '\n' -> out.append("\\n")
                c == '\r' -> out.append("\\r")
                c == '\t' -> out.append("\\t")
                c < ' ' -> out.append(unicodeEscape(c))
                Character.isHighSurrogate(c) && k + 1 < s.length && Character.isLowSurrogate(s[k + 1]) -> {
                    out.append(c).append(s[k + 1])
                    k++
                }
                Character.isSurrogate(c) -> {
                    lone = true
                    out.append(unicodeEscape(c))
                }
                else -> out.append(c)
            }
            k++
        }
        out.append('"')
        return lone
    }

    private fun unicodeEscape(c: Char) = "\\u%04x".format(c.code)
}
