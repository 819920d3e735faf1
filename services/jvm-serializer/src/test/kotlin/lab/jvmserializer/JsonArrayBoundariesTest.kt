package lab.jvmserializer

import lab.jvmserializer.serde.JsonArrayBoundaries
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.ValueSource

/** The boundary scanner of json-multithreaded: only top-level commas split, whatever strings and nesting hold. */
class JsonArrayBoundariesTest {
    /** Every top-level element's text, with ranges of one element each (minChars 0). */
    private fun elements(text: String): List<String> {
        val out = ArrayList<String>()
        val count = JsonArrayBoundaries.split(text, 0) { start, end -> out += text.substring(start, end) }
        assertEquals(out.size, count, "the count matches the elements emitted")
        return out
    }

    @Test
    fun `plain elements and nesting`() {
        assertEquals(listOf("1", "2", "3"), elements("[1,2,3]"))
        assertEquals(listOf("""{"a":[1,2]}""", "[[3,4],{}]", "[]"), elements("""[{"a":[1,2]},[[3,4],{}],[]]"""))
        assertEquals(listOf("""{"a":{"b":{"c":[1,{"d":2}]}}}""", "5"), elements("""[{"a":{"b":{"c":[1,{"d":2}]}}},5]"""))
    }

    @Test
    fun `commas, brackets and braces inside strings do not split`() {
        assertEquals(listOf("\"a,b\"", "\"[,]\"", "\"},{\"", "\"{\""), elements("""["a,b","[,]","},{","{"]"""))
        assertEquals(listOf("""{"k,":"v]"}""", "\"]\""), elements("""[{"k,":"v]"},"]"]"""))
    }

    @Test
    fun `escaped quotes and escaped backslashes`() {
        // \" stays in the string; \\ is one backslash, so the quote after it closes the string.
        assertEquals(listOf("\"a\\\",b\"", "\"c\""), elements("""["a\",b","c"]"""))
        assertEquals(listOf("\"a\\\\\"", "\"b\""), elements("""["a\\","b"]"""))
        assertEquals(listOf("\"\\\\\\\",\"", "1"), elements("""["\\\",",1]"""))
        assertEquals(listOf("\"\\u0022,\"", "\"\\n,\\t\""), elements("""["\u0022,","\n,\t"]"""))
    }

    @Test
    fun `non-ASCII text and white space`() {
        assertEquals(listOf("\"é,中\"", "\"😀\""), elements("""["é,中","😀"]"""))
        assertEquals(listOf(" 1 ", "\n{ \"a\" : [ 1 , 2 ] }\n"), elements("[ 1 ,\n{ \"a\" : [ 1 , 2 ] }\n]"))
        assertEquals(listOf("1"), elements("  [1]\n"))
    }

    @Test
    fun `empty arrays and a single element`() {
        assertEquals(emptyList<String>(), elements("[]"))
        assertEquals(emptyList<String>(), elements("[ \n ]"))
        assertEquals(listOf("{}"), elements("[{}]"))
    }

    @Test
    fun `ranges hold whole elements and are at least minChars long, except the last`() {
        val text = "[" + (1..20).joinToString(",") { "\"${"x".repeat(it)}\"" } + "]"
        val ranges = ArrayList<Pair<Int, Int>>()
        val count = JsonArrayBoundaries.split(text, 30) { start, end -> ranges += start to end }
        assertEquals(20, count)
        ranges.dropLast(1).forEach { (start, end) -> assertEquals(true, end - start >= 30, "range $start..$end") }
        // Joined back with commas, the ranges are the array's content exactly.
        assertEquals(text.substring(1, text.length - 1), ranges.joinToString(",") { (s, e) -> text.substring(s, e) })
    }

    @ParameterizedTest
    @ValueSource(strings = ["", "  ", "{}", "1", "[1", "[\"a]", "[1]x", "[1]]", "[1}", "[1,]", "[\"a\\\"]"])
    fun `text that is not one array is refused`(text: String) {
        assertThrows<IllegalArgumentException> { JsonArrayBoundaries.split(text, 0) { _, _ -> } }
    }
}
