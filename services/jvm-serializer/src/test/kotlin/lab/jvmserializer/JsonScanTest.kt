package lab.jvmserializer

import lab.jvmserializer.documents.JsonScan
import lab.jvmserializer.documents.NotJson
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.ValueSource

/** The strict reader and the canonical form every document run is checked against. */
class JsonScanTest {
    private fun canonical(text: String) = JsonScan.of(text, 100).second.sha256
    private fun plainSha(text: String) = java.security.MessageDigest.getInstance("SHA-256").digest(text.encodeToByteArray()).joinToString("") { "%02x".format(it) }

    @Test
    fun `the canonical form erases whitespace and how characters are spelled, and is JSON stringify's text`() {
        val written = "{\"a\":\"é/\\\"\\n\\u001f\",\"b\":[1,-500,true,null]}"
        assertEquals(plainSha(written), canonical(written))
        assertEquals(canonical(written), canonical(" {\"a\" : \"\\u00e9\\/\\\"\\n\\u001F\",\n \"b\": [ 1, -0.5e3, true , null ] } "))
    }

    @Test
    fun `a changed value or a dropped duplicate key is a different canonical form`() {
        val document = canonical("""{"a":1.50,"k":1,"k":2}""")
        assertNotEquals(document, canonical("""{"a":1.51,"k":1,"k":2}"""))
        assertNotEquals(document, canonical("""{"a":1.50,"k":2}"""))
        assertNotEquals(document, canonical("""{"a":1.50,"k":1,"k":3}"""))
    }

    @Test
    fun `a number's value is kept, not its spelling, but for an integer's every digit and a zero's sign`() {
        // Java's spellings of the same doubles, as kotlinx and Jackson write them.
        assertEquals(canonical("[1.5,1e-7,100,1e+21,0.1]"), canonical("[1.50,1.0E-7,1e2,1.0E21,0.1000000000000000055511151231257827]"))
        assertEquals(plainSha("[1.5,1e-7,1e400,0,-0,-0]"), canonical("[15e-1,0.0000001,1e400,0.0,-0.0,-1e-400]"))
        assertNotEquals(canonical("[123456789012345678901234567890]"), canonical("[1.2345678901234568E29]"))
        assertNotEquals(canonical("[-0.0]"), canonical("[0.0]"))
        assertNotEquals(canonical("[-0]"), canonical("[0]"))
    }

    @ParameterizedTest
    @ValueSource(strings = ["[1,]", "{\"a\":1,}", "[01]", "[1.]", "[.5]", "['a']", "[NaN]", "[\"a\tb\"]", "[\"\\x\"]", "[1] [2]", "", "{\"a\" 1}", "[-]", "[1e]", "[\"\\u12\"]", "{a:1}"])
    fun `what JSON parse refuses is refused`(text: String) {
        assertThrows(NotJson::class.java) { canonical(text) }
    }

    @Test
    fun `depth past the cap stops the scan`() {
        assertEquals(3, JsonScan.of("[[{}]]", 3).first.depth)
        assertEquals(4, assertThrows(JsonScan.TooDeep::class.java) { JsonScan.of("[[[[]]]]", 3) }.depth)
    }
}
