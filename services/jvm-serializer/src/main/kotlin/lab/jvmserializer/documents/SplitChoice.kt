package lab.jvmserializer.documents

import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import kotlin.math.roundToInt

/**
 * What json-multithreaded does with a JSON text: split [bulk] into [chunks] on the pool, or decline (json on one
 * thread). [considered]: the container the rule found, split or not; [declinedBecause]: a decline with no container
 * to speak of. A document run reports it as `split` ([toJson]), so a user learns why.
 */
class SplitChoice private constructor(
    val considered: Bulk?,
    private val splits: Boolean,
    val chunks: Int,
    private val declinedBecause: String? = null,
) {
    /** The container to split, or null: decline. */
    val bulk: Bulk? get() = considered.takeIf { splits }

    /** The choice in words; [pointer]: the considered container's JSON pointer ([JsonBulk.pathTo]). */
    fun detail(pointer: String?): String {
        declinedBecause?.let { return "declined: $it" }
        val c = considered!!
        val kind = if (c.isObject) "object" else "array"
        val what = if (pointer.isNullOrEmpty()) "root $kind" else "$kind at $pointer"
        val percent = "${(c.share * 100).roundToInt()} %"
        return if (splits) {
            "split the $what into $chunks chunks of its ${c.members} members, which hold $percent of the text outside the largest one"
        } else {
            "declined: chunks could share at most $percent of the text (the $what), below the ${(MIN_SHARE * 100).roundToInt()} % a split needs"
        }
    }

    fun toJson(pointer: String?): JsonObject = buildJsonObject {
        put("split", splits)
        considered?.let {
            put("path", pointer)
            put("container", if (it.isObject) "object" else "array")
            put("members", it.members)
            put("textShare", Math.round(it.share * 1000) / 1000.0)
        }
        if (splits) put("chunks", chunks)
        put("detail", detail(pointer))
    }

    companion object {
        /**
         * The least part of a text that the chosen container must let chunks share. The rest of the document is
         * encoded and decoded on the run's own thread while the pool takes the chunks, and the scan that finds and
         * cuts the container costs about a quarter of json's whole parse (measured on npm's `next`, 2 cores:
         * docs/findings/jvm-serializer.md, 2026-11-29); on 2 threads the chunks save half their share, which first
         * covers that quarter at half the text.
         */
        const val MIN_SHARE = 0.5

        /**
         * The choice for [text]: decline below [minChars] characters (the pool's threshold), without a container of
         * two members, or when the best one lets chunks share less than [MIN_SHARE] of the text; else split it into
         * about [maxChunks] chunks of its text's share, as [JsonBulk.find] cut them (fewer when it has fewer members).
         */
        fun of(text: String, minChars: Long, maxChunks: Int): SplitChoice {
            if (text.length < minChars) {
                return SplitChoice(null, false, 1, "${text.length} characters, below the $minChars a split needs (SERDE_PARALLEL_MIN_OBJECTS)")
            }
            // Cuts a whole text's length apart would make maxChunks chunks of a container holding all of it; the bulk,
            // at least half the text, gets from half as many to that many.
            val bulk = JsonBulk.find(text, maxOf(1, text.length / maxChunks)) ?: return SplitChoice(null, false, 1, "no array or object has two members")
            return if (bulk.share < MIN_SHARE) SplitChoice(bulk, false, 1) else SplitChoice(bulk, true, bulk.chunks)
        }
    }
}
