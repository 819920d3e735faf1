package lab.jvmserializer.payloads

import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.add
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import kotlinx.serialization.json.putJsonArray
import kotlinx.serialization.json.putJsonObject

/** The spec's transfer cases by name; the name fixes shape and size. Declaration order is the spec's table order. */
val TRANSFER_CASES: Map<String, (Draws) -> JsonElement> = linkedMapOf(
    "flat_small" to { d -> flat(d, 10) },
    "flat_medium" to { d -> flat(d, 100) },
    "flat_large" to { d -> flat(d, 1000) },
    "nested_d2" to { d -> nested(d, 2) },
    "nested_d3" to { d -> nested(d, 3) },
    "nested_d4" to { d -> nested(d, 4) },
    "numbers_100" to { d -> intArray(d, 100, 1L shl 31) },
    "numbers_1000" to { d -> intArray(d, 1000, 1L shl 31) },
    "numbers_10000" to { d -> intArray(d, 10000, 1L shl 31) },
    "objects_10" to { d -> items(d, 10) },
    "objects_100" to { d -> items(d, 100) },
    "objects_500" to { d -> items(d, 500) },
    "tree_d4_b3" to { d -> tree(d, 4, 3) },
    "tree_d6_b4" to { d -> tree(d, 6, 4) },
)

fun generateTransferCase(case: String, seed: Int): JsonElement {
    val make = TRANSFER_CASES[case] ?: throw IllegalArgumentException("unknown transfer case $case")
    return make(Draws(seed))
}

private fun intArray(d: Draws, n: Int, bound: Long): JsonArray = JsonArray(List(n) { JsonPrimitive(d.int(bound)) })

private fun flat(d: Draws, n: Int): JsonObject = buildJsonObject {
    for (k in 0 until n) if (k % 2 == 0) put("f$k", d.int(1_000_000)) else put("f$k", d.str(8))
}

private fun nested(d: Draws, depth: Int): JsonObject = buildJsonObject {
    put("level", depth)
    put("name", d.str(8))
    putJsonObject("meta") {
        put("a", d.int(1000))
        put("b", d.str(4))
    }
    if (depth > 1) put("child", nested(d, depth - 1))
}

private fun items(d: Draws, n: Int): JsonArray = JsonArray(List(n) { i ->
    buildJsonObject {
        put("id", i)
        put("name", d.str(8))
        put("score", d.int(1_000_000))
        putJsonArray("tags") { repeat(3) { add(d.str(4)) } }
    }
})

// The value is drawn before the children, as in the reference.
private fun tree(d: Draws, depth: Int, branching: Int): JsonObject {
    val value = d.int(1_000_000)
    return buildJsonObject {
        put("value", value)
        put("children", JsonArray(if (depth > 1) List(branching) { tree(d, depth - 1, branching) } else emptyList()))
    }
}
