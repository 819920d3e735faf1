package lab.jvmserializer

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonElement
import lab.jvmserializer.documents.JsonBulk
import lab.jvmserializer.documents.KotlinxTreeApproach
import lab.jvmserializer.documents.MultithreadedTreeApproach
import lab.jvmserializer.serde.SerdePool
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance

/**
 * Where json-multithreaded splits a user's document (JsonBulk, SplitChoice) and that the split changes nothing: its
 * text is json's byte for byte, its tree json's, on every shape. Work is counted, never timed: the scan's characters
 * examined, the chunks the pool was given.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BulkSplitTest {
    private val pool = SerdePool(2)

    // A threshold of no characters: every document here is large enough to split.
    private val mt = MultithreadedTreeApproach(pool, 0)
    private val json = KotlinxTreeApproach()

    @AfterAll
    fun stop() = pool.close()

    private fun split(text: String) = mt.parseSplit(text)

    /** Serialize and deserialize as json-multithreaded; both must be json's, and the split must reach the pool iff chosen. */
    private fun assertSameAsJson(text: String) {
        val tree = json.parse(text)
        val expected = json.serialize(tree)
        val input = split(text)
        val before = pool.submittedTasks()
        val wire = mt.serializeSplit(input)
        assertEquals(expected, wire, "serialized text")
        val decoded: JsonElement = mt.deserialize(wire)
        assertEquals(tree, decoded, "deserialized tree")
        assertEquals(expected, json.serialize(decoded), "the decoded tree's text")
        // Each phase's chunks but the run thread's own may go to the pool: some do when it splits, none when it declines.
        val submitted = pool.submittedTasks() - before
        assertEquals(input.choice.bulk != null, submitted > 0, "chunks submitted: $submitted for ${input.choice.detail(input.pointer)}")
    }

    @Test
    fun `on a packument the versions object is split, not the root nor an array`() {
        val text = BulkDocuments.packument(2000)
        val bulk = JsonBulk.find(text, text.length / 8)!!
        assertTrue(bulk.isObject)
        // Its cuts are its own top-level commas, between whole members, about an eighth of the text apart.
        assertEquals(8, bulk.chunks)
        for (cut in bulk.cuts) assertTrue(text.startsWith(",\"15.0.", cut), text.substring(cut, cut + 10))
        assertEquals(2000, bulk.members)
        assertEquals("/versions", JsonBulk.pointer(JsonBulk.pathTo(text, bulk.open)))
        assertTrue(bulk.share > 0.9, "share ${bulk.share}")
        // One pass: every character covered once, one at a time or in a string's span.
        assertEquals(text.length, bulk.charsVisited)

        val input = split(text)
        assertEquals("/versions", input.pointer)
        assertEquals(8, input.choice.chunks)
        val report = input.choice.toJson(input.pointer)
        assertEquals("""split the object at /versions into 8 chunks of its 2000 members, which hold 92 % of the text outside the largest one""",
            report.getValue("detail").toString().trim('"'))
        assertSameAsJson(text)
    }

    @Test
    fun `an array of records is split as before, as the root or as a member`() {
        for ((text, pointer) in listOf(BulkDocuments.records(500, wrapped = false) to "", BulkDocuments.records(500, wrapped = true) to "/rows")) {
            val input = split(text)
            assertEquals(pointer, input.pointer)
            assertFalse(input.choice.bulk!!.isObject)
            assertEquals(500, input.choice.bulk!!.members)
            assertSameAsJson(text)
        }
    }

    @Test
    fun `a document with no dominant container declines and says why`() {
        val text = BulkDocuments.readmeHeavy(200)
        val input = split(text)
        assertEquals(null, input.choice.bulk)
        // The root object spreads the most over its members, but only the versions beside the readme: too little.
        assertEquals("", input.pointer)
        assertTrue(input.choice.considered!!.share < 0.2, "${input.choice.considered!!.share}")
        val detail = input.choice.detail(input.pointer)
        assertTrue(detail.startsWith("declined: chunks could share at most ") && detail.endsWith("(the root object), below the 50 % a split needs"), detail)
        assertSameAsJson(text)
    }

    @Test
    fun `below the pool's threshold it declines before scanning`() {
        val strict = MultithreadedTreeApproach(pool, 64)
        val text = BulkDocuments.records(20, wrapped = false)
        val input = strict.parseSplit(text)
        assertEquals(null, input.choice.bulk)
        assertTrue(input.choice.detail(null).startsWith("declined: ${json.serialize(json.parse(text)).length} characters, below the 86272"))
    }

    @Test
    fun `without a container of two members it declines`() {
        for (text in listOf("1", "\"a,b\"", "[]", "{}", "[[[1]]]", """{"a":{"b":[{}]}}""")) {
            val input = split(text)
            assertEquals(null, input.choice.bulk, text)
            assertEquals("declined: no array or object has two members", input.choice.detail(input.pointer))
            assertSameAsJson(text)
        }
    }

    @Test
    fun `keys escaped, non-ASCII, with commas, braces and pointer characters come back in json's order`() {
        val keys = listOf("""caf\u00e9""", "café", """k\"q,}""", "a/b~c", """\ud83d\ude00""", "", "{[,]}", """\\""", "zz", "aa")
        val text = keys.withIndex().joinToString(",", """{"x":1,"bulk":{""", """},"y":[]}""") { (i, k) -> """"$k":{"i":$i,"e":{},"n":[[],[[$i]]]}""" }
        assertEquals("/bulk", split(text).pointer)
        assertEquals(text.length, JsonBulk.find(text, 1)!!.charsVisited)
        assertSameAsJson(text)
        // The pointer of a key that needs escaping in both JSON and RFC 6901.
        val odd = """{"a/b~\"c\u00e9":[1,2,3,4,5,6,7,8,9,10],"z":0}"""
        assertEquals("/a~1b~0\"cé", split(odd).pointer)
        assertSameAsJson(odd)
    }

    @Test
    fun `the path to a bulk deep in arrays and after closed containers`() {
        val members = (0 until 50).joinToString(",") { """"v$it":{"n":[$it]}""" }
        val text = """{"x":{"y":[1,"]}",{"k":2}]},"z":[0,{"a":"{","w":{$members}}],"t":[]}"""
        assertEquals("/z/1/w", split(text).pointer)
        assertSameAsJson(text)
    }

    @Test
    fun `a comma too many is refused as json refuses it, wherever it falls`() {
        for (text in listOf("[1,2,,3,4]", "[1,2,3,4,]", "[,1,2,3,4]", """{"a":1,"b":2,}""", """{"a":1,,"b":2}""", """{"x":[1,2,3,],"y":0}""")) {
            val jsonSays = runCatching { json.parse(text) }.exceptionOrNull()
            assertTrue(jsonSays != null, text)
            // Cut at every comma: each blank chunk's comma is a cut.
            assertTrue(runCatching { mt.deserialize(text) }.isFailure, text)
        }
    }

    @Test
    fun `a repeated key behaves as json's parser, the first place and the last value, within a chunk or across`() {
        // kotlinx keeps one member per key: where the key first stood, with the value it was given last.
        val members = (0 until 40).joinToString(",") { """"k${it % 7}":$it""" }
        val text = """{"small":1,"bulk":{$members}}"""
        val expected = Json.parseToJsonElement(text)
        assertEquals(7, (expected as kotlinx.serialization.json.JsonObject).getValue("bulk").let { (it as kotlinx.serialization.json.JsonObject).size })
        val decoded = mt.deserialize(text)
        assertEquals(expected, decoded)
        assertEquals(json.serialize(expected), json.serialize(decoded))
        // A repeated key outside the bulk that replaces it: the split's work is dropped as json drops the value.
        val outside = """{"bulk":[${(0 until 100).joinToString(",")}],"bulk":"later"}"""
        assertEquals(Json.parseToJsonElement(outside), mt.deserialize(outside))
        val before = """{"bulk":"earlier","bulk":[${(0 until 100).joinToString(",")}]}"""
        assertEquals(json.serialize(Json.parseToJsonElement(before)), json.serialize(mt.deserialize(before)))
    }

    @Test
    fun `white space in the document does not move the split or the text`() {
        val text = BulkDocuments.packument(50).replace(",\"", ",\n  \"").replace(":{", ": {")
        assertEquals("/versions", split(text).pointer)
        assertSameAsJson(text)
        assertEquals(json.parse(text), mt.deserialize(text))
    }
}
