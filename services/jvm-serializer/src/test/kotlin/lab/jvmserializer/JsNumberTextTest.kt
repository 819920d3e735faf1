package lab.jvmserializer

import lab.jvmserializer.documents.JsNumberText
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/**
 * JSON.stringify(Number(text)) as Node 24 gives it (each pair below was printed by it), on the JDK the tests run on:
 * the layout's edges, the range's ends, subnormals, and doubles at powers of two, where the shortest digits are not
 * what rounding the exact value to that many digits gives. test-kit/document-checks.json holds the findings built on it.
 */
class JsNumberTextTest {
    private val node = listOf(
        "1e21" to "1e+21", "1e+21" to "1e+21", "100000000000000000000.0" to "100000000000000000000",
        "0.0000001" to "1e-7", "1e-7" to "1e-7", "0.000001" to "0.000001", "2.5E-3" to "0.0025", "1.0" to "1", "-0.0" to "0",
        "5e-324" to "5e-324", "4.9e-324" to "5e-324", "2e-323" to "2e-323", "1.5e-323" to "1.5e-323", "1.6e-323" to "1.5e-323",
        "1e400" to "null", "-1e-400" to "0", "1.7976931348623157e308" to "1.7976931348623157e+308",
        "5.6843418860808015e-14" to "5.684341886080802e-14", "0.30000000000000004" to "0.30000000000000004",
        "9.999999999999999e22" to "1e+23", "1e23" to "1e+23", "123456789012345678901234567890.5" to "1.2345678901234568e+29",
        "9007199254740993" to "9007199254740992",
    )

    @Test
    fun `each text is written as Node writes its number`() {
        for ((text, written) in node) assertEquals(written, JsNumberText.stringify(text), text)
    }

    @Test
    fun `a text is its own stringify form exactly when Node writes it back unchanged`() {
        for ((text, written) in node) assertEquals(text == written, JsNumberText.isStringifyForm(text), text)
        for (text in listOf("0", "12", "-3.25", "0.5", "123456789012345", "0.000123")) assertEquals(true, JsNumberText.isStringifyForm(text), text)
    }
}
