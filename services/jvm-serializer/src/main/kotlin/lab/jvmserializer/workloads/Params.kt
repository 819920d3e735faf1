package lab.jvmserializer.workloads

import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put

/** A workload parameter as /info describes it. Parsing throws a 400 [HttpError], never returns an unchecked value. */
sealed class Param {
    abstract val name: String
    abstract fun describe(): JsonObject
    abstract fun parse(raw: String): Any
    abstract val default: Any
}

/** An integer in [min, max], inclusive. */
class IntParam(override val name: String, override val default: Int, val min: Int, val max: Int) : Param() {
    init {
        require(default in min..max) { "parameter $name: default $default outside [$min, $max]" }
    }

    override fun describe() = buildJsonObject {
        put("default", default)
        put("min", min)
        put("max", max)
    }

    override fun parse(raw: String): Int {
        val range = buildJsonObject { put("min", min); put("max", max) }
        if (!INTEGER.matches(raw)) throw HttpError.badRequest("$name must be an integer", name, range)
        // Digits beyond Long's range are still an integer, just out of range.
        val value = raw.toLongOrNull()
        if (value == null || value < min || value > max) {
            throw HttpError.badRequest("$name must be between $min and $max", name, range)
        }
        return value.toInt()
    }

    private companion object {
        val INTEGER = Regex("-?[0-9]+")
    }
}

/** One of a fixed list of names. */
class NamedParam(override val name: String, override val default: String, val values: List<String>) : Param() {
    init {
        require(default in values) { "parameter $name: default $default not in $values" }
    }

    override fun describe() = buildJsonObject {
        put("default", default)
        put("values", JsonArray(values.map(::JsonPrimitive)))
    }

    override fun parse(raw: String): String {
        if (raw !in values) {
            throw HttpError.badRequest("$name must be one of ${values.joinToString(", ")}", name, strings(values))
        }
        return raw
    }
}

/**
 * A generated document by name ([names]), or a user's document by the sha256 PUT /documents answered (64 lowercase
 * hex digits; whether it is stored is the run's to say, with a 404 naming what is).
 */
class DocumentParam(override val name: String, override val default: String, val names: List<String>) : Param() {
    override fun describe() = buildJsonObject {
        put("default", default)
        put("values", JsonArray(names.map(::JsonPrimitive)))
        put("pattern", SHA256.pattern)
    }

    override fun parse(raw: String): String {
        if (raw !in names && !SHA256.matches(raw)) {
            throw HttpError.badRequest("$name must be one of ${names.joinToString(", ")} or the sha256 of a document PUT /documents stored", name,
                buildJsonObject { put("values", JsonArray(names.map(::JsonPrimitive))); put("pattern", SHA256.pattern) })
        }
        return raw
    }

    companion object {
        val SHA256 = Regex("[0-9a-f]{64}")
    }
}

/** Parameters as used by one run, defaults filled in, in the workload's declaration order. */
class RunParams(private val values: Map<String, Any>) {
    fun int(name: String): Int = values.getValue(name) as Int
    fun string(name: String): String = values.getValue(name) as String
    fun toJson() = JsonObject(values.mapValues { (_, v) -> if (v is Int) JsonPrimitive(v) else JsonPrimitive(v.toString()) })
}

/** A /run request checked against a workload: the approach and every parameter, or a 400. */
data class RunRequest(val approach: String, val params: RunParams)

/**
 * Every parameter of [query] is one of [names] and given once, or a 400 naming what is allowed: the names, or
 * [allowedOf] the parameter given twice.
 */
fun checkQueryNames(query: Map<String, List<String>>, names: List<String>, allowedOf: (String) -> JsonElement) {
    for ((name, given) in query) {
        if (name !in names) throw HttpError.badRequest("unknown parameter $name", name, strings(names))
        if (given.size != 1) throw HttpError.badRequest("parameter $name must be given once", name, allowedOf(name))
    }
}

fun parseRunRequest(workload: Workload, query: Map<String, List<String>>): RunRequest {
    checkQueryNames(query, listOf(APPROACH) + workload.params.map { it.name }) { allowedOf(workload, it) }
    val approach = query[APPROACH]?.single() ?: workload.approaches.first()
    if (approach !in workload.approaches) {
        throw HttpError.badRequest("approach must be one of ${workload.approaches.joinToString(", ")}", APPROACH, strings(workload.approaches))
    }
    val values = LinkedHashMap<String, Any>()
    for (param in workload.params) values[param.name] = query[param.name]?.single()?.let(param::parse) ?: param.default
    val params = RunParams(values)
    workload.checkParams(params)
    return RunRequest(approach, params)
}

private const val APPROACH = "approach"

private fun allowedOf(workload: Workload, name: String) =
    if (name == APPROACH) strings(workload.approaches) else workload.params.first { it.name == name }.describe()

internal fun strings(values: List<String>) = JsonArray(values.map(::JsonPrimitive))
