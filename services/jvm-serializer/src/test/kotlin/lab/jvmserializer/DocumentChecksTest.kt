package lab.jvmserializer

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.int
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.DynamicTest.dynamicTest
import org.junit.jupiter.api.TestFactory
import org.junit.jupiter.api.TestInstance
import java.io.File

/**
 * PUT /documents over real HTTP against test-kit/document-checks.json, the answers every runtime gives a document's
 * text (Node's node-kit is held to the same file): its findings (topic, path, count), or the 400 of a text that is
 * not JSON (line, column, excerpt) or nests deeper than the cap (depth, maxDepth).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DocumentChecksTest {
    private val checks = Json.parseToJsonElement(File(System.getProperty("lab.documentChecks") ?: error("run through Maven: -Dlab.documentChecks is unset")).readText()).jsonObject
    private val services = HashMap<Int, DocumentService>()

    /** A service per depth cap the cases use, built when first needed. */
    private fun serviceFor(maxDepth: Int) = services.getOrPut(maxDepth) {
        DocumentService(Config(serdeThreads = 1, documents = DocumentSettings(maxDepth = maxDepth)))
    }

    @AfterAll
    fun stop() = services.values.forEach { it.close() }

    /** The vector's expectation in the shape of [answer]'s result. */
    private fun expected(case: JsonObject): Pair<String, JsonElement> = listOf("findings", "notJson", "tooDeep").single { it in case }.let { it to case.getValue(it) }

    /** What the JVM answered, reduced to the fields the vectors name. */
    private fun answer(text: String, maxDepth: Int): Pair<String, JsonElement> {
        val response = serviceFor(maxDepth).http.putJson(text)
        val body = response.json()
        fun pick(vararg keys: String) = JsonObject(keys.associateWith { body.getValue(it) })
        return when {
            response.statusCode() in listOf(200, 201) -> "findings" to JsonArray(body.getValue("findings").jsonArray.map { f -> JsonObject(f.jsonObject.filterKeys { it != "detail" }) })
            response.statusCode() == 400 && "depth" in body -> "tooDeep" to pick("depth", "maxDepth")
            response.statusCode() == 400 -> "notJson" to pick("line", "column", "excerpt")
            else -> "status ${response.statusCode()}" to body
        }
    }

    @TestFactory
    fun `every case gets the answer the vectors give`(): List<DynamicTest> {
        val defaultDepth = checks.getValue("maxDepth").jsonPrimitive.int
        return checks.getValue("cases").jsonArray.map { it.jsonObject }.map { case ->
            dynamicTest(case.getValue("name").jsonPrimitive.content) {
                val maxDepth = case["maxDepth"]?.jsonPrimitive?.int ?: defaultDepth
                assertEquals(expected(case), answer(case.getValue("text").jsonPrimitive.content, maxDepth))
            }
        }
    }
}
