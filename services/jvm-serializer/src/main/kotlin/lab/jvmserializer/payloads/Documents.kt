package lab.jvmserializer.payloads

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.add
import kotlinx.serialization.json.addJsonObject
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import kotlinx.serialization.json.putJsonArray
import kotlinx.serialization.json.putJsonObject

/** Names of the spec's documents; `transfer` is a family of named cases (see TransferCases.kt). */
object DocumentNames {
    const val RECORDS = "records"
    const val OBJECTS = "objects"
    const val TRANSFER = "transfer"
}

/**
 * The spec's `records` document as a JSON tree. buildJsonObject keeps insertion order, and every draw happens in the
 * spec's key order because each `put` argument is evaluated just before it is added.
 */
fun generateRecords(seed: Int, size: Int): JsonElement {
    val d = Draws(seed)
    return buildJsonObject {
        put("size", size)
        putJsonArray("records") {
            for (i in 0 until size) addJsonObject {
                put("id", i)
                put("name", d.str(12))
                put("email", d.str(10) + "@" + d.str(8) + ".example")
                put("score", d.int(1_000_000))
                putJsonArray("tags") { repeat(5) { add(d.str(8)) } }
                putJsonObject("address") {
                    put("street", d.str(20))
                    put("city", d.str(10))
                    put("zip", d.str(5))
                    put("country", d.str(2))
                }
                putJsonArray("history") {
                    repeat(10) {
                        addJsonObject {
                            put("ts", d.int(1L shl 31))
                            put("event", d.str(8))
                            put("amount", d.int(100_000))
                        }
                    }
                }
                put("notes", d.str(1200))
            }
        }
    }
}

/** The `objects` document as a JSON tree, for callers that treat every document alike (the vector tests). */
fun objectsAsJson(objects: List<SpecObject>): JsonElement = JsonArray(objects.map { o ->
    buildJsonObject {
        put("name", o.name)
        put("number", o.number)
        put("strings", JsonArray(o.strings.map(::JsonPrimitive)))
    }
})

/** Compact JSON of any spec document: kotlinx.serialization writes no white space and escapes nothing the spec uses. */
fun specDocumentJson(document: String, seed: Int, size: Int?, case: String?): String = Json.encodeToString(
    JsonElement.serializer(),
    when (document) {
        DocumentNames.RECORDS -> generateRecords(seed, requireNotNull(size) { "records needs a size" })
        DocumentNames.OBJECTS -> objectsAsJson(generateObjects(seed, requireNotNull(size) { "objects needs a size" }))
        DocumentNames.TRANSFER -> generateTransferCase(requireNotNull(case) { "transfer needs a case" }, seed)
        else -> throw IllegalArgumentException("unknown document $document")
    },
)
